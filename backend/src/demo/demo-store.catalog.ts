/**
 * What the demo store sells: top-level categories, their subcategories and hand-written products
 * with current list prices. All brands are invented.
 */
export interface Subcategory {
  name: string;
  /** Middle part of the SKU, e.g. `LAP` in `ELE-LAP-003`. */
  code: string;
  /** Demand multiplier per calendar month (Jan … Dec) on top of the store-wide seasonality. */
  season?: readonly number[];
  /** Extra chance that an order containing this subcategory comes back (sizes, fit). */
  returnRisk?: number;
  products: readonly (readonly [name: string, price: number])[];
}

export interface TopCategory {
  name: string;
  code: string;
  subcategories: readonly Subcategory[];
}

const GIFT_SEASON = [0.85, 0.85, 0.9, 0.9, 0.9, 0.9, 0.9, 0.95, 1, 1.05, 1.35, 1.6];
const OUTDOOR_SEASON = [0.45, 0.5, 0.8, 1.2, 1.6, 1.9, 1.9, 1.6, 1.1, 0.7, 0.55, 0.6];
const NEW_YEAR_FITNESS = [1.9, 1.4, 1.1, 1, 0.95, 0.9, 0.85, 0.85, 0.95, 0.95, 1, 1.1];
const WINTER_SEASON = [1.3, 1.1, 0.9, 0.8, 0.7, 0.6, 0.6, 0.7, 0.9, 1.2, 1.4, 1.5];

export const CATALOG: readonly TopCategory[] = [
  {
    name: 'Electronics',
    code: 'ELE',
    subcategories: [
      {
        name: 'Laptops',
        code: 'LAP',
        season: [1, 0.9, 0.9, 0.85, 0.85, 0.9, 1.1, 1.4, 1.2, 0.95, 1.2, 1.3], // back to school
        products: [
          ['Zentra Air 13 Laptop', 899], ['Zentra Pro 15 Laptop', 1499], ['Lumio Flex 14 2-in-1 Laptop', 749],
          ['Lumio Studio 16 Creator Laptop', 2199], ['Northbyte Chromebook 14', 329], ['Northbyte Gamer 17 Laptop', 1799],
          ['Vectra Slim 14 Ultrabook', 1099], ['Vectra Workstation 16', 1999],
        ],
      },
      {
        name: 'Smartphones',
        code: 'PHN',
        season: GIFT_SEASON,
        products: [
          ['Zentra Z5 Smartphone', 699], ['Zentra Z6 Smartphone', 799], ['Zentra Z6 Max Smartphone', 1099],
          ['Pixora One Smartphone', 899], ['Pixora One Lite Smartphone', 449], ['Lumio Phone 12', 599],
          ['Lumio Phone 12 Mini', 499], ['Northbyte Rugged X Phone', 379],
        ],
      },
      {
        name: 'Audio',
        code: 'AUD',
        season: GIFT_SEASON,
        products: [
          ['Sonaro Wireless Earbuds', 129], ['Sonaro Noise-Cancelling Headphones', 299],
          ['Sonaro Studio Monitor Headphones', 179], ['Boomly Portable Speaker', 79], ['Boomly Party Speaker', 249],
          ['Vectra Soundbar 300', 399], ['Lumio Sport Earbuds', 89], ['Boomly Mini Speaker', 39],
        ],
      },
      {
        name: 'Smart Home',
        code: 'SMH',
        season: GIFT_SEASON,
        products: [
          ['Hearthly Smart Thermostat', 199], ['Hearthly Video Doorbell', 149], ['Glowen Smart Bulb 4-Pack', 49],
          ['Glowen Light Strip 5m', 39], ['Hearthly Indoor Camera', 59], ['Zentra Smart Display 8', 129],
          ['Glowen Smart Plug 2-Pack', 25], ['Hearthly Robot Vacuum', 349],
        ],
      },
      {
        name: 'Computer Accessories',
        code: 'ACC',
        products: [
          ['Northbyte USB-C Cable 2m', 15], ['Northbyte 65W GaN Charger', 45], ['Lumio Wireless Charging Pad', 29],
          ['Northbyte 10,000mAh Power Bank', 39], ['Vectra Laptop Sleeve 14-inch', 35], ['Vectra Ergonomic Wireless Mouse', 49],
          ['Vectra Mechanical Keyboard', 119], ['Zentra 27-inch 4K Monitor', 429],
        ],
      },
    ],
  },
  {
    name: 'Home & Kitchen',
    code: 'HOM',
    subcategories: [
      {
        name: 'Cookware',
        code: 'CKW',
        season: GIFT_SEASON,
        products: [
          ['Ferro Cast Iron Skillet 12-inch', 45], ['Ferro Enameled Dutch Oven 5.5 qt', 119],
          ['Copperline Nonstick Frying Pan Set', 69], ['Copperline Stainless Saucepan 2 qt', 49],
          ['Ferro Carbon Steel Wok', 55], ['Copperline 10-Piece Cookware Set', 249], ['Bakewise Sheet Pan Set', 35],
          ['Bakewise Silicone Baking Mats', 19],
        ],
      },
      {
        name: 'Small Appliances',
        code: 'APL',
        season: GIFT_SEASON,
        products: [
          ['Brewmaster Drip Coffee Maker', 89], ['Brewmaster Espresso Machine', 499], ['Whirlo High-Speed Blender', 149],
          ['Whirlo Hand Mixer', 39], ['Crispo Air Fryer 5L', 119], ['Toastly 4-Slice Toaster', 59],
          ['Kettlo Electric Kettle', 45], ['Crispo Multi-Cooker 6 qt', 129],
        ],
      },
      {
        name: 'Home Decor',
        code: 'DEC',
        season: GIFT_SEASON,
        products: [
          ['Linden Ceramic Vase', 39], ['Linden Linen Throw Pillow', 29], ['Aster Round Wall Mirror', 149],
          ['Aster Brass Table Lamp', 89], ['Linden Scented Candle Set', 25], ['Aster Framed Print Set', 119],
          ['Linden Woven Storage Basket', 35], ['Aster Minimalist Wall Clock', 49],
        ],
      },
      {
        name: 'Bedding',
        code: 'BED',
        season: WINTER_SEASON,
        products: [
          ['Cloudrest Percale Sheet Set Queen', 89], ['Cloudrest Down Alternative Duvet', 129],
          ['Cloudrest Memory Foam Pillow', 59], ['Slumbra Weighted Blanket', 149], ['Slumbra Mattress Topper', 199],
          ['Cloudrest Flannel Sheet Set', 79], ['Slumbra Linen Duvet Cover', 169], ['Cloudrest Waterproof Mattress Protector', 45],
        ],
      },
    ],
  },
  {
    name: 'Sports & Outdoors',
    code: 'SPO',
    subcategories: [
      {
        name: 'Fitness',
        code: 'FIT',
        season: NEW_YEAR_FITNESS,
        products: [
          ['Ironpeak Adjustable Dumbbells', 299], ['Ironpeak Kettlebell 12kg', 49], ['Flexa Yoga Mat', 35],
          ['Flexa Resistance Band Set', 25], ['Ironpeak Foldable Treadmill', 899], ['Stridewell Exercise Bike', 649],
          ['Flexa Foam Roller', 29], ['Ironpeak Doorway Pull-Up Bar', 39],
        ],
      },
      {
        name: 'Camping & Hiking',
        code: 'CMP',
        season: OUTDOOR_SEASON,
        products: [
          ['Trailhaven 2-Person Tent', 189], ['Trailhaven 4-Person Tent', 329], ['Summitry Down Sleeping Bag', 249],
          ['Summitry Hiking Backpack 40L', 139], ['Trailhaven Camping Stove', 69], ['Summitry Trekking Poles', 59],
          ['Trailhaven LED Lantern', 29], ['Summitry Insulated Water Bottle', 25],
        ],
      },
      {
        name: 'Cycling',
        code: 'CYC',
        season: OUTDOOR_SEASON,
        products: [
          ['Velora City Bike', 649], ['Velora Gravel Bike', 1399], ['Velora Bike Helmet', 79], ['Velora LED Bike Light Set', 35],
          ['Spokeline U-Lock', 45], ['Spokeline Floor Pump', 39], ['Spokeline Cycling Gloves', 25], ['Velora Kids Balance Bike', 119],
        ],
      },
    ],
  },
  {
    name: 'Clothing & Shoes',
    code: 'CLO',
    subcategories: [
      {
        name: "Men's Apparel",
        code: 'MEN',
        returnRisk: 0.08,
        products: [
          ['Harbor Oxford Shirt', 59], ['Harbor Slim Chinos', 69], ['Harbor Merino Crew Sweater', 99],
          ['Ridgeway Rain Jacket', 149], ['Ridgeway Puffer Jacket', 189], ['Harbor Crew T-Shirt 3-Pack', 39],
          ['Ridgeway Fleece Hoodie', 65], ['Harbor Straight Denim Jeans', 79],
        ],
      },
      {
        name: "Women's Apparel",
        code: 'WMN',
        returnRisk: 0.1,
        products: [
          ['Marlowe Wrap Dress', 89], ['Marlowe Linen Blouse', 59], ['Marlowe High-Rise Jeans', 85],
          ["Ridgeway Women's Rain Jacket", 149], ['Marlowe Cashmere Sweater', 179], ['Marlowe Wool Coat', 229],
          ["Ridgeway Women's Fleece", 65], ['Marlowe Pleated Skirt', 69],
        ],
      },
      {
        name: 'Footwear',
        code: 'SHO',
        returnRisk: 0.09,
        products: [
          ['Stridewell Running Shoe', 129], ['Stridewell Trail Runner', 139], ['Harbor Leather Sneaker', 119],
          ['Ridgeway Hiking Boot', 169], ['Marlowe Ankle Boot', 159], ['Stridewell Slip-On', 69],
          ['Harbor Canvas Sneaker', 55], ['Ridgeway Waterproof Chelsea Boot', 189],
        ],
      },
    ],
  },
  {
    name: 'Books & Games',
    code: 'BKG',
    subcategories: [
      {
        name: 'Books',
        code: 'BOK',
        season: GIFT_SEASON,
        products: [
          ['The Lantern Keeper (Novel)', 17], ['Salt and Cedar (Novel)', 19], ['Numbers Don\'t Lie: Everyday Statistics', 29],
          ['Weeknight Kitchen Cookbook', 32], ['The Long Trail: A Hiking Memoir', 24], ['Atlas of Small Islands', 45],
          ['Mindful Mornings Journal', 15], ['A Field Guide to Backyard Birds', 22],
        ],
      },
      {
        name: 'Board Games & Puzzles',
        code: 'GAM',
        season: [0.9, 0.8, 0.8, 0.75, 0.7, 0.7, 0.75, 0.8, 0.85, 1, 1.6, 2.1],
        products: [
          ['Harbor Lights Strategy Game', 49], ['Galaxy Traders Board Game', 59], ['Word Weaver Party Game', 25],
          ['Mountain Lake 1000-Piece Puzzle', 22], ['Night Market 500-Piece Puzzle', 18], ['Castle Builders Family Game', 39],
          ['Cipher Detective Card Game', 15], ['Walnut Wooden Chess Set', 79],
        ],
      },
    ],
  },
  {
    name: 'Beauty & Personal Care',
    code: 'BEA',
    subcategories: [
      {
        name: 'Skincare',
        code: 'SKN',
        products: [
          ['Dewlume Vitamin C Serum', 34], ['Dewlume Daily Moisturizer SPF 30', 28], ['Dewlume Gentle Cleanser', 18],
          ['Puravie Retinol Night Cream', 42], ['Puravie Hyaluronic Serum', 29], ['Puravie Clay Mask', 22],
          ['Dewlume Eye Cream', 36], ['Puravie Sheet Mask 10-Pack', 19],
        ],
      },
      {
        name: 'Hair Care',
        code: 'HAI',
        products: [
          ['Lustra Repair Shampoo', 16], ['Lustra Hydrating Conditioner', 16], ['Lustra Ionic Hair Dryer', 129],
          ['Lustra Ceramic Flat Iron', 89], ['Lustra Curling Wand', 69], ['Puravie Argan Hair Oil', 24],
          ['Lustra Scalp Massager', 12], ['Puravie Leave-In Conditioner', 19],
        ],
      },
    ],
  },
];
