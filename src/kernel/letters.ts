// Latin letters that Unicode does not decompose into a base letter and an accent.
const UNDECOMPOSED: Readonly<Record<string, string>> = {
  Ł: 'L',
  ł: 'l',
  Đ: 'D',
  đ: 'd',
  Ħ: 'H',
  ħ: 'h',
  ı: 'i',
};

/** A letter without its accents (`é` -> `e`, `Ł` -> `L`); a letter without any comes back as it is. */
export function withoutAccents(char: string): string {
  return UNDECOMPOSED[char] ?? char.normalize('NFKD').replace(/\p{M}+/gu, '');
}
