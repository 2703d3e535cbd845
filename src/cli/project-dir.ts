/** `--dir`/`-C` of every command that works on a project: where to look for `.mesh/` (there, then upward, as git does). */
import {Flags} from '@oclif/core'

export const projectDirFlag = Flags.string({char: 'C', description: 'project folder (default: the nearest folder holding .mesh/, from the current one up)'})
