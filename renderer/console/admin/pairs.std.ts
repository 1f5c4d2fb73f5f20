/** A row of two typed texts: a custom attribute's name and value, an option's label and value. */
export interface Pair {
  key: string;
  value: string;
}

export const emptyPair = (): Pair => ({ key: '', value: '' });
