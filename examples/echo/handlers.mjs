// The skills of the Echo agent: skill id → async (input, ctx) => output.
// `input` is the request body, already checked against the skill's inputSchema.
export default {
  async echo(input) {
    return input
  },
}
