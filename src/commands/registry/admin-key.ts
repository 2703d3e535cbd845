import {resolve} from 'node:path'
import {MeshCommand} from '../../cli/base-command.js'
import {dataFlag} from '../../cli/server-flags.js'
import {MeshError} from '../../lib/errors.js'

export default class RegistryAdminKey extends MeshCommand {
  static override description = `Print the registry's admin key (sent as the x-admin-key header to set reserved owner classes).

The key is generated at the first start of \`mesh serve registry\` into <data>/registry-admin.key (mode 0600). It is a secret: treat the output like a password.`

  static override examples = ['<%= config.bin %> registry admin-key', '<%= config.bin %> registry admin-key --data /var/lib/mesh --json']

  // The same --data (default, env) as `mesh serve registry`, so it reads what the server wrote.
  static override flags = {data: dataFlag}

  async run() {
    const {flags} = await this.parse(RegistryAdminKey)
    const {readAdminKeyFile} = await import('../../registry/shared-secrets.js')
    const dataDir = resolve(flags.data)
    const {checkDataDir} = await import('../../cli/serve-checks.js')
    await checkDataDir(dataDir)
    let key: string | null
    try {
      key = await readAdminKeyFile(dataDir)
    } catch (error) {
      throw new MeshError('forbidden', 'admin_key_unreadable', `Cannot read the admin key in ${dataDir}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
    }
    if (!key) {
      throw new MeshError('not_found', 'admin_key_missing', `No admin key in ${dataDir}; start \`mesh serve registry --data ${flags.data}\` once to create it`)
    }
    if (!this.jsonEnabled()) this.log(key)
    return {admin_key: key, data: dataDir}
  }
}
