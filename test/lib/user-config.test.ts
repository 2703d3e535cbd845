import {chmodSync, mkdtempSync, rmSync, symlinkSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {userConfigDir, userFileProblem} from '../../src/lib/user-config.js'

describe('the per-user config folder', () => {
  it('is $XDG_CONFIG_HOME/mesh when absolute, else ~/.config/mesh, and %APPDATA%\\mesh on Windows', () => {
    expect(userConfigDir({XDG_CONFIG_HOME: '/x/config', HOME: '/home/a'}, 'linux')).toBe('/x/config/mesh')
    // The XDG spec: a relative value is invalid and ignored.
    expect(userConfigDir({XDG_CONFIG_HOME: 'config', HOME: '/home/a'}, 'linux')).toBe('/home/a/.config/mesh')
    expect(userConfigDir({HOME: '/Users/a'}, 'darwin')).toBe('/Users/a/.config/mesh')
    expect(userConfigDir({APPDATA: 'C:\\Users\\a\\AppData\\Roaming', HOME: '/h'}, 'win32')).toBe(join('C:\\Users\\a\\AppData\\Roaming', 'mesh'))
  })
})

describe('a file of the per-user folder', () => {
  it('is believed only while it and its folders are writable by its owner alone, following a link to check its target', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mesh-user-file-'))
    try {
      chmodSync(dir, 0o700)
      const file = join(dir, 'clients.yaml')
      writeFileSync(file, 'clients: {}\n', {mode: 0o600})
      expect(await userFileProblem(file)).toBeNull()
      chmodSync(file, 0o620)
      expect(await userFileProblem(file)).toBe(`${file} can be changed by other users (mode 0620); run \`chmod 600 ${file}\``)
      chmodSync(file, 0o644)
      expect(await userFileProblem(file)).toBeNull()
      const link = join(dir, 'link.yaml')
      symlinkSync(file, link)
      chmodSync(file, 0o666)
      expect(await userFileProblem(link)).toMatch(/link\.yaml can be changed by other users \(mode 0666\)/)
    } finally {
      rmSync(dir, {recursive: true, force: true})
    }
  })
})
