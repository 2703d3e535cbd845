/**
 * The agent's pay-per-call tables in its own SQLite (`<data>/mesh.db`,
 * migrations area `agent_payments`). Lamport amounts are TEXT: they are
 * u64 on chain and would not all fit a JavaScript number.
 */
import type {Migration} from '../../store/migrations.js'

export const AGENT_PAYMENTS_AREA = 'agent_payments'

export const AGENT_PAYMENTS_MIGRATIONS: Migration[] = [
  {
    area: AGENT_PAYMENTS_AREA,
    version: 1,
    sql: `
      -- Free daily allowance: one row per counted key (pk:<pubkey> or ip:<ip>), a 24 h window from its first call.
      CREATE TABLE agent_pay_allowance (
        key TEXT PRIMARY KEY,
        window_start_ms INTEGER NOT NULL,
        used INTEGER NOT NULL
      );
      -- Nonces issued in 402 challenges; used_by is the signature whose memo carried it.
      CREATE TABLE agent_pay_nonces (
        nonce TEXT PRIMARY KEY,
        resource TEXT NOT NULL,
        lamports TEXT NOT NULL,
        issued_ms INTEGER NOT NULL,
        expires_ms INTEGER NOT NULL,
        used_by TEXT UNIQUE
      );
      CREATE INDEX agent_pay_nonces_expiry ON agent_pay_nonces (expires_ms) WHERE used_by IS NULL;
      -- Verified payment proofs: the call each one bought (resource + body hash) and where it stands.
      -- reserved: a handler is running on it; verified: paid, not served (the handler failed); served: spent,
      -- retries of the same call are served until expires_ms.
      CREATE TABLE agent_pay_proofs (
        signature TEXT PRIMARY KEY,
        nonce TEXT NOT NULL,
        resource TEXT NOT NULL,
        body_hash TEXT NOT NULL,
        lamports TEXT NOT NULL,
        paid_lamports TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('reserved', 'verified', 'served')),
        verified_ms INTEGER NOT NULL,
        expires_ms INTEGER
      );
      -- Prepaid: payer address → the caller key its deposits credit (first binding wins).
      CREATE TABLE agent_pay_bindings (
        payer_address TEXT PRIMARY KEY,
        pubkey TEXT NOT NULL,
        bound_ms INTEGER NOT NULL
      );
      CREATE INDEX agent_pay_bindings_pubkey ON agent_pay_bindings (pubkey);
      -- Prepaid balance in credits, plus the lamports left over below one credit.
      CREATE TABLE agent_pay_credits (
        pubkey TEXT PRIMARY KEY,
        balance INTEGER NOT NULL CHECK (balance >= 0),
        remainder_lamports TEXT NOT NULL DEFAULT '0'
      );
      -- Every wallet transaction the deposit scan has handled, credited or not: never twice.
      CREATE TABLE agent_pay_deposits (
        signature TEXT PRIMARY KEY,
        outcome TEXT NOT NULL,
        payer_address TEXT,
        pubkey TEXT,
        lamports TEXT,
        credits INTEGER NOT NULL DEFAULT 0,
        seen_ms INTEGER NOT NULL
      );
      -- Small named values: the deposit scan cursor (newest signature handled).
      CREATE TABLE agent_pay_state (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );
    `,
  },
  {
    area: AGENT_PAYMENTS_AREA,
    version: 2,
    sql: `
      -- Issue 18, one payment buys one answer: a nonce is bound to the call it was issued for.
      -- body_hash NULL: issued before this version (bound to skill and price only, as it was then).
      -- signer: the Mesh-Sig key of the caller that got the 402, NULL when it was unsigned.
      ALTER TABLE agent_pay_nonces ADD COLUMN body_hash TEXT;
      ALTER TABLE agent_pay_nonces ADD COLUMN signer TEXT;
      -- The proof's bound signer (its nonce's), and the answer of the paid call, replayed to a retry.
      -- answer_body NULL with answer_bytes set: above the cap, not kept; both NULL: none yet, or dropped after the window.
      ALTER TABLE agent_pay_proofs ADD COLUMN signer TEXT;
      ALTER TABLE agent_pay_proofs ADD COLUMN answer_status INTEGER;
      ALTER TABLE agent_pay_proofs ADD COLUMN answer_headers TEXT;
      ALTER TABLE agent_pay_proofs ADD COLUMN answer_body TEXT;
      ALTER TABLE agent_pay_proofs ADD COLUMN answer_bytes INTEGER;
      -- Issue 18, prepaid payer addresses proven: how the binding was proven (signature or memo);
      -- NULL for a binding made before this version, which any proof of control replaces.
      ALTER TABLE agent_pay_bindings ADD COLUMN proven_by TEXT;
      -- Proof-of-control challenges a topup issued: (payer address, caller key) → nonce, until expires_ms.
      CREATE TABLE agent_pay_payer_challenges (
        nonce TEXT PRIMARY KEY,
        payer_address TEXT NOT NULL,
        pubkey TEXT NOT NULL,
        issued_ms INTEGER NOT NULL,
        expires_ms INTEGER NOT NULL
      );
      CREATE INDEX agent_pay_payer_challenges_pair ON agent_pay_payer_challenges (payer_address, pubkey, issued_ms);
      CREATE INDEX agent_pay_payer_challenges_expiry ON agent_pay_payer_challenges (expires_ms);
    `,
  },
]
