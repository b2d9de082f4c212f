/**
 * Where the demo store's customers and staff live, and what they are called. Hand-written lists;
 * weights are rough shares of customers, cities are listed largest first.
 */
export type WorldRegion = 'North America' | 'Latin America' | 'Europe' | 'Asia Pacific';

export const WORLD_REGIONS: readonly WorldRegion[] = ['North America', 'Europe', 'Asia Pacific', 'Latin America'];

type Locale = 'en' | 'de' | 'fr' | 'es' | 'pt' | 'it' | 'nl' | 'sv' | 'ja' | 'hi' | 'zh';

export interface Country {
  name: string;
  region: WorldRegion;
  weight: number;
  locale: Locale;
  cities: readonly string[];
}

export const COUNTRIES: readonly Country[] = [
  {
    name: 'United States',
    region: 'North America',
    weight: 34,
    locale: 'en',
    cities: [
      'New York', 'Los Angeles', 'Chicago', 'Houston', 'Phoenix', 'Philadelphia', 'San Antonio', 'San Diego',
      'Dallas', 'Austin', 'Seattle', 'Denver', 'Boston', 'Atlanta', 'Miami', 'Portland', 'Minneapolis', 'Nashville',
    ],
  },
  { name: 'Canada', region: 'North America', weight: 6, locale: 'en', cities: ['Toronto', 'Montreal', 'Vancouver', 'Calgary', 'Ottawa', 'Edmonton', 'Halifax'] },
  { name: 'Mexico', region: 'Latin America', weight: 4, locale: 'es', cities: ['Mexico City', 'Guadalajara', 'Monterrey', 'Puebla', 'Mérida'] },
  { name: 'Brazil', region: 'Latin America', weight: 4, locale: 'pt', cities: ['São Paulo', 'Rio de Janeiro', 'Belo Horizonte', 'Curitiba', 'Porto Alegre', 'Recife'] },
  { name: 'Argentina', region: 'Latin America', weight: 2, locale: 'es', cities: ['Buenos Aires', 'Córdoba', 'Rosario', 'Mendoza'] },
  { name: 'Chile', region: 'Latin America', weight: 1, locale: 'es', cities: ['Santiago', 'Valparaíso', 'Concepción'] },
  { name: 'United Kingdom', region: 'Europe', weight: 9, locale: 'en', cities: ['London', 'Manchester', 'Birmingham', 'Leeds', 'Glasgow', 'Bristol', 'Edinburgh', 'Liverpool'] },
  { name: 'Germany', region: 'Europe', weight: 8, locale: 'de', cities: ['Berlin', 'Hamburg', 'Munich', 'Cologne', 'Frankfurt', 'Stuttgart', 'Leipzig', 'Dresden'] },
  { name: 'France', region: 'Europe', weight: 6, locale: 'fr', cities: ['Paris', 'Marseille', 'Lyon', 'Toulouse', 'Nice', 'Nantes', 'Bordeaux', 'Lille'] },
  { name: 'Spain', region: 'Europe', weight: 4, locale: 'es', cities: ['Madrid', 'Barcelona', 'Valencia', 'Seville', 'Zaragoza', 'Bilbao'] },
  { name: 'Italy', region: 'Europe', weight: 4, locale: 'it', cities: ['Rome', 'Milan', 'Naples', 'Turin', 'Bologna', 'Florence'] },
  { name: 'Netherlands', region: 'Europe', weight: 3, locale: 'nl', cities: ['Amsterdam', 'Rotterdam', 'The Hague', 'Utrecht', 'Eindhoven'] },
  { name: 'Sweden', region: 'Europe', weight: 2, locale: 'sv', cities: ['Stockholm', 'Gothenburg', 'Malmö', 'Uppsala'] },
  { name: 'Australia', region: 'Asia Pacific', weight: 5, locale: 'en', cities: ['Sydney', 'Melbourne', 'Brisbane', 'Perth', 'Adelaide', 'Canberra'] },
  { name: 'Japan', region: 'Asia Pacific', weight: 4, locale: 'ja', cities: ['Tokyo', 'Yokohama', 'Osaka', 'Nagoya', 'Sapporo', 'Fukuoka'] },
  { name: 'India', region: 'Asia Pacific', weight: 4, locale: 'hi', cities: ['Mumbai', 'Delhi', 'Bengaluru', 'Hyderabad', 'Chennai', 'Pune', 'Kolkata'] },
  { name: 'Singapore', region: 'Asia Pacific', weight: 2, locale: 'zh', cities: ['Singapore'] },
];

export const FIRST_NAMES: Readonly<Record<Locale, readonly string[]>> = {
  en: [
    'James', 'Mary', 'Robert', 'Patricia', 'John', 'Jennifer', 'Michael', 'Linda', 'David', 'Elizabeth', 'William',
    'Barbara', 'Richard', 'Susan', 'Joseph', 'Jessica', 'Thomas', 'Sarah', 'Christopher', 'Karen', 'Daniel', 'Lisa',
    'Matthew', 'Nancy', 'Anthony', 'Emily', 'Mark', 'Ashley', 'Andrew', 'Olivia', 'Joshua', 'Emma', 'Ryan', 'Sophia',
    'Ethan', 'Ava', 'Noah', 'Grace', 'Liam', 'Chloe', 'Aiden', 'Hannah', 'Lucas', 'Madison', 'Nathan', 'Abigail',
    'Benjamin', 'Charlotte', 'Samuel', 'Amelia', 'Owen', 'Harper', 'Caleb', 'Zoe', 'Isaac', 'Natalie',
  ],
  de: [
    'Lukas', 'Anna', 'Leon', 'Mia', 'Finn', 'Emma', 'Jonas', 'Hannah', 'Paul', 'Lena', 'Felix', 'Laura', 'Maximilian',
    'Lea', 'Elias', 'Sophie', 'Noah', 'Marie', 'Ben', 'Julia', 'Tim', 'Katharina', 'Jan', 'Sarah', 'Moritz', 'Johanna',
  ],
  fr: [
    'Louis', 'Emma', 'Gabriel', 'Jade', 'Raphaël', 'Louise', 'Jules', 'Alice', 'Arthur', 'Chloé', 'Hugo', 'Léa',
    'Lucas', 'Manon', 'Nathan', 'Camille', 'Théo', 'Inès', 'Adam', 'Sarah', 'Mathis', 'Zoé', 'Antoine', 'Juliette',
  ],
  es: [
    'Alejandro', 'Lucía', 'Daniel', 'Sofía', 'Pablo', 'María', 'Hugo', 'Martina', 'Javier', 'Paula', 'Diego',
    'Valentina', 'Carlos', 'Carmen', 'Mateo', 'Elena', 'Sergio', 'Isabel', 'Adrián', 'Laura', 'Santiago', 'Camila',
    'Miguel', 'Ana',
  ],
  pt: [
    'Miguel', 'Helena', 'Arthur', 'Alice', 'Gael', 'Laura', 'Heitor', 'Valentina', 'Davi', 'Manuela', 'Lucas', 'Júlia',
    'Gabriel', 'Beatriz', 'Rafael', 'Mariana', 'Pedro', 'Larissa', 'Gustavo', 'Camila', 'Thiago', 'Fernanda',
  ],
  it: [
    'Leonardo', 'Sofia', 'Francesco', 'Giulia', 'Alessandro', 'Aurora', 'Lorenzo', 'Alice', 'Mattia', 'Ginevra',
    'Andrea', 'Emma', 'Gabriele', 'Giorgia', 'Riccardo', 'Beatrice', 'Tommaso', 'Chiara', 'Marco', 'Francesca',
    'Luca', 'Martina',
  ],
  nl: [
    'Daan', 'Emma', 'Sem', 'Julia', 'Lucas', 'Mila', 'Levi', 'Tess', 'Finn', 'Sophie', 'Milan', 'Zoë', 'Jesse', 'Sara',
    'Thijs', 'Anna', 'Bram', 'Lotte', 'Ruben', 'Fleur',
  ],
  sv: [
    'William', 'Alice', 'Liam', 'Maja', 'Hugo', 'Elsa', 'Lucas', 'Astrid', 'Oliver', 'Ebba', 'Elias', 'Wilma', 'Oscar',
    'Freja', 'Axel', 'Saga', 'Erik', 'Ingrid', 'Nils', 'Linnea',
  ],
  ja: [
    'Haruto', 'Yui', 'Sota', 'Hina', 'Yuto', 'Aoi', 'Riku', 'Sakura', 'Hinata', 'Yuna', 'Kaito', 'Mei', 'Ren', 'Rin',
    'Daiki', 'Mio', 'Takumi', 'Saki', 'Kenji', 'Yuki',
  ],
  hi: [
    'Aarav', 'Ananya', 'Vivaan', 'Diya', 'Aditya', 'Saanvi', 'Arjun', 'Aadhya', 'Rohan', 'Isha', 'Karan', 'Priya',
    'Rahul', 'Kavya', 'Vikram', 'Neha', 'Sanjay', 'Pooja', 'Amit', 'Meera',
  ],
  zh: ['Wei Ming', 'Jia Hui', 'Jun Jie', 'Xin Yi', 'Zhi Hao', 'Hui Min', 'Kai Wen', 'Shu Fen', 'Jia Wei', 'Li Ting', 'Yong Sheng', 'Mei Ling'],
};

export const LAST_NAMES: Readonly<Record<Locale, readonly string[]>> = {
  en: [
    'Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez', 'Wilson',
    'Anderson', 'Taylor', 'Thomas', 'Moore', 'Jackson', 'Martin', 'Lee', 'Thompson', 'White', 'Harris', 'Clark',
    'Lewis', 'Robinson', 'Walker', 'Young', 'Allen', 'King', 'Wright', 'Scott', 'Hill', 'Green', 'Adams', 'Baker',
    'Nelson', 'Carter', 'Mitchell', 'Roberts', 'Campbell', 'Evans', 'Turner', 'Parker', 'Collins', 'Edwards',
    'Stewart', 'Morris', 'Murphy', 'Cook', 'Rogers', 'Bennett', 'Hughes', 'Foster', 'Patel', 'Nguyen', 'Kim', 'Chen',
    "O'Brien", 'Sullivan', 'Reed', 'Brooks', 'Price', 'Ward', 'Hayes', 'Fraser', 'MacDonald', 'Walsh',
  ],
  de: [
    'Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weber', 'Meyer', 'Wagner', 'Becker', 'Schulz', 'Hoffmann', 'Schäfer',
    'Koch', 'Bauer', 'Richter', 'Klein', 'Wolf', 'Schröder', 'Neumann', 'Schwarz', 'Zimmermann', 'Braun', 'Krüger',
    'Hofmann', 'Hartmann', 'Lange', 'Werner',
  ],
  fr: [
    'Martin', 'Bernard', 'Dubois', 'Thomas', 'Robert', 'Richard', 'Petit', 'Durand', 'Leroy', 'Moreau', 'Simon',
    'Laurent', 'Lefebvre', 'Michel', 'Garcia', 'David', 'Bertrand', 'Roux', 'Vincent', 'Fournier', 'Morel', 'Girard',
    'Lambert', 'Bonnet',
  ],
  es: [
    'García', 'Rodríguez', 'González', 'Fernández', 'López', 'Martínez', 'Sánchez', 'Pérez', 'Gómez', 'Martín',
    'Jiménez', 'Ruiz', 'Hernández', 'Díaz', 'Moreno', 'Álvarez', 'Romero', 'Torres', 'Navarro', 'Ramírez', 'Flores',
    'Castro', 'Vargas', 'Ortiz',
  ],
  pt: [
    'Silva', 'Santos', 'Oliveira', 'Souza', 'Rodrigues', 'Ferreira', 'Alves', 'Pereira', 'Lima', 'Gomes', 'Costa',
    'Ribeiro', 'Martins', 'Carvalho', 'Almeida', 'Lopes', 'Barbosa', 'Rocha', 'Dias', 'Moreira',
  ],
  it: [
    'Rossi', 'Russo', 'Ferrari', 'Esposito', 'Bianchi', 'Romano', 'Colombo', 'Ricci', 'Marino', 'Greco', 'Bruno',
    'Gallo', 'Conti', 'De Luca', 'Mancini', 'Costa', 'Giordano', 'Rizzo', 'Lombardi', 'Moretti', 'Barbieri', 'Fontana',
  ],
  nl: [
    'de Jong', 'Jansen', 'de Vries', 'van den Berg', 'van Dijk', 'Bakker', 'Janssen', 'Visser', 'Smit', 'Meijer',
    'de Boer', 'Mulder', 'de Groot', 'Bos', 'Vos', 'Peters', 'Hendriks', 'van Leeuwen', 'Dekker', 'Brouwer',
  ],
  sv: [
    'Andersson', 'Johansson', 'Karlsson', 'Nilsson', 'Eriksson', 'Larsson', 'Olsson', 'Persson', 'Svensson',
    'Gustafsson', 'Pettersson', 'Jonsson', 'Lindberg', 'Lindström', 'Lindqvist', 'Berg', 'Bergström', 'Lundberg',
    'Holm', 'Sandberg',
  ],
  ja: [
    'Sato', 'Suzuki', 'Takahashi', 'Tanaka', 'Watanabe', 'Ito', 'Yamamoto', 'Nakamura', 'Kobayashi', 'Kato',
    'Yoshida', 'Yamada', 'Sasaki', 'Yamaguchi', 'Matsumoto', 'Inoue', 'Kimura', 'Hayashi', 'Shimizu', 'Mori',
  ],
  hi: [
    'Sharma', 'Verma', 'Patel', 'Gupta', 'Singh', 'Kumar', 'Reddy', 'Iyer', 'Nair', 'Rao', 'Mehta', 'Joshi', 'Shah',
    'Kapoor', 'Malhotra', 'Chopra', 'Desai', 'Menon', 'Pillai', 'Bose',
  ],
  zh: ['Tan', 'Lim', 'Lee', 'Ng', 'Ong', 'Wong', 'Goh', 'Chua', 'Koh', 'Teo', 'Chan', 'Yeo'],
};

/** Reserved example domains (RFC 2606), so no generated address can belong to anyone. */
export const EMAIL_DOMAINS: readonly string[] = ['example.com', 'example.net', 'example.org', 'mail.example.com'];

/** `José Álvarez` → `jose.alvarez`: ASCII, lower case, no spaces or apostrophes. */
export function emailLocalPart(firstName: string, lastName: string): string {
  const clean = (s: string) =>
    s
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '');
  return `${clean(firstName)}.${clean(lastName)}`;
}
