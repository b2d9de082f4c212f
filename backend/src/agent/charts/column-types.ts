export type VegaType = 'quantitative' | 'temporal' | 'nominal' | 'ordinal';

export interface TypedColumn {
  name: string;
  type: VegaType;
}

const ISO_DATE = /^\d{4}-\d{2}(-\d{2})?([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** Vega-Lite types from the values themselves (the database types are gone by the time rows are JSON). */
export function inferColumnTypes(columns: string[], rows: Record<string, unknown>[]): TypedColumn[] {
  return columns.map((name) => {
    const values = rows.map((r) => r[name]).filter((v) => v !== null && v !== undefined);
    if (values.length === 0) return { name, type: 'nominal' };
    if (values.every((v) => typeof v === 'number')) {
      // Years as numbers chart better on a time axis than as quantities.
      if (/(^|_)(year|yr)$/i.test(name) && values.every((v) => Number.isInteger(v) && (v as number) >= 1900 && (v as number) <= 2200)) return { name, type: 'ordinal' };
      return { name, type: 'quantitative' };
    }
    if (values.every((v) => typeof v === 'string' && ISO_DATE.test(v))) return { name, type: 'temporal' };
    if (values.every((v) => typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)))) return { name, type: 'quantitative' };
    return { name, type: 'nominal' };
  });
}
