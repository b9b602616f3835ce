export const CURRENCY = 'EUR';
