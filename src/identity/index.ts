/** mesh identity: Ed25519 keys, did:key, Mesh-Sig request signatures and local secret storage. */
export * from './constants.js'
export {base58Decode, base58Encode} from './base58.js'
export {didKeyFromPublicKey, publicKeyFromDidKey} from './did-key.js'
export {
  decodePublicKey,
  exportPublicKey,
  generateIdentityKeyPair,
  importPrivateKey,
  importPublicKey,
  normalizePublicKey,
  type IdentityKeyPair,
} from './keys.js'
export {audienceOrNull, normalizeAudience, requestAudience} from './audience.js'
export {
  bodyHash,
  parseMeshSig,
  signRequest,
  signedString,
  verifyMeshSig,
  type MeshSig,
  type SignRequestInput,
  type VerifiedMeshSig,
  type VerifyMeshSigInput,
} from './mesh-sig.js'
export {createMemoryNonceStore, type NonceStore, type MemoryNonceStoreOptions} from './nonce-store.js'
export {meshSigMiddleware, type MeshSigMiddlewareOptions, type MeshSigSigner} from './koa.js'
export {createFileSecretStore, openSecretStore, type OpenSecretStoreOptions, type SecretBackend, type SecretStore} from './secrets.js'
