/**
 * Where mesh keeps a user's own settings on this machine, and the check a
 * file there passes before mesh believes it (issue 18: a file that names
 * commands to run is the user's, nobody else's).
 *
 * The folder follows each platform's convention for a command-line tool:
 * `$XDG_CONFIG_HOME/mesh/` when that is set to an absolute path (the XDG Base
 * Directory spec; relative values are ignored, as the spec says), else
 * `~/.config/mesh/` on Linux and macOS (where CLIs such as git and gh keep
 * theirs), and `%APPDATA%\mesh\` on Windows.
 */
import {realpath, stat} from 'node:fs/promises'
import {homedir} from 'node:os'
import {dirname, isAbsolute, join} from 'node:path'

/** The per-user folder of mesh (it may not exist yet). */
export function userConfigDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  const xdg = env.XDG_CONFIG_HOME
  if (xdg && isAbsolute(xdg)) return join(xdg, 'mesh')
  if (platform === 'win32' && env.APPDATA) return join(env.APPDATA, 'mesh')
  return join(env.HOME || homedir(), '.config', 'mesh')
}

const octal = (mode: number) => `0${(mode & 0o777).toString(8)}`

/**
 * Why `path` (a file of the user's folder) cannot be believed, in a sentence,
 * or null when it can: it must be a regular file owned by this user, and
 * neither it nor its folder may be writable by group or others (as ssh
 * refuses an `authorized_keys` others can change). A link is followed (a
 * dotfiles manager links these files); the file it leads to and both folders
 * are checked. On Windows, which has no such modes, nothing is checked.
 */
export async function userFileProblem(path: string): Promise<string | null> {
  if (process.platform === 'win32' || typeof process.getuid !== 'function') return null
  const uid = process.getuid()
  const real = await realpath(path)
  const info = await stat(real)
  if (!info.isFile()) return `${path} is not a regular file`
  if (info.uid !== uid) return `${path} belongs to another user (uid ${info.uid}), not to you (uid ${uid}); only your own file is used`
  if ((info.mode & 0o022) !== 0) return `${path} can be changed by other users (mode ${octal(info.mode)}); run \`chmod 600 ${real}\``
  for (const folder of new Set([dirname(path), dirname(real)])) {
    const about = await stat(folder)
    // The folder may be root's (a system-wide layout) but never another user's.
    if (about.uid !== uid && about.uid !== 0) return `${folder} belongs to another user (uid ${about.uid}), who could replace ${path}`
    if ((about.mode & 0o022) !== 0) return `${folder} can be changed by other users (mode ${octal(about.mode)}), who could replace ${path}; run \`chmod 700 ${folder}\``
  }
  return null
}
