// The skills of the Word Counter agent: skill id → async (input, ctx) => output.
// The kit runs a handler only once the call is paid for (free allowance, a
// verified payment proof, or prepaid credit); ctx.payment says how.
export default {
  async 'word-count'({text}, ctx) {
    const trimmed = text.trim()
    return {
      words: trimmed === '' ? 0 : trimmed.split(/\s+/).length,
      characters: [...text].length,
      lines: text === '' ? 0 : text.split('\n').length,
      paid_via: ctx.payment?.via ?? 'free',
    }
  },
}
