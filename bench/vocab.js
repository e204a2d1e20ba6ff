// Pseudo-words for benchmark notes: index 0 is the most common, the tail is rare.
export const VOCAB = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36)}x`);
