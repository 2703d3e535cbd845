/** The agent's Solana code: chain client, payment checks, addresses (Solana Pay URIs: src/protocol/solana-pay.ts). */
export {createChainClient, chainUnavailable, type ChainClient, type ChainClientOptions, type SignatureEntry, type SignaturesQuery} from './chain-client.js'
export {checkPayment, type PaymentCheck, type PaymentCheckFailure, type PaymentExpectation} from './check-payment.js'
export {blockTimeMs, lamportsTo, memosOf, nativeTransfers, type NativeTransfer, type ParsedInstruction, type ParsedTransaction} from './transaction.js'
export {isSolanaAddress} from './address.js'
export {MEMO_PROGRAM_IDS, SYSTEM_PROGRAM_ID} from './constants.js'
