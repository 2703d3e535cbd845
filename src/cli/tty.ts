/** Whether stdout is a terminal a person reads (colour, Ink views) rather than a pipe. */
export const stdoutIsTTY = () => Boolean(process.stdout.isTTY) && process.env.CI !== 'true'
/** Whether we may prompt: an interactive terminal on both ends. */
export const canPrompt = () => Boolean(process.stdin.isTTY && process.stdout.isTTY) && process.env.CI !== 'true'
