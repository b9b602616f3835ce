export const title = 'Checkout';
