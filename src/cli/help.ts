/**
 * mesh's help (oclif `helpClass`): every command once in `mesh --help`
 * (issue 21). oclif lists at the root each topic it believes has children and
 * each one-word command. Its test of children is a substring match, so `ask`
 * passes for a topic through `task:*`; and a command that has subcommands
 * (`serve`, `plugins`) is listed twice, as a topic and as a command. Here a
 * topic has children when a command's id starts with its name and a colon,
 * and at the root such a command is shown once, as its topic (its own help
 * lists its subcommands).
 */
import {Help, type Command, type Interfaces} from '@oclif/core'

export default class MeshHelp extends Help {
  private atRoot = false

  protected override get sortedTopics(): Interfaces.Topic[] {
    const ids = this.config.commands.map((command) => command.id)
    return super.sortedTopics.filter((topic) => ids.some((id) => id.startsWith(`${topic.name}:`)))
  }

  protected override get sortedCommands(): Command.Loadable[] {
    const commands = super.sortedCommands
    if (!this.atRoot) return commands
    const topics = new Set(this.sortedTopics.map((topic) => topic.name))
    return commands.filter((command) => !topics.has(command.id))
  }

  protected override async showRootHelp(): Promise<void> {
    this.atRoot = true
    try {
      await super.showRootHelp()
    } finally {
      this.atRoot = false
    }
  }
}
