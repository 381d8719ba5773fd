/** Alphabets of encoded DNS labels and callback ids. */
export const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
export const HEX = '0123456789abcdef';
export const ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';
