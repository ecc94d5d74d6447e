// The test network's friendbot: funds a new account with 10000 XLM. Like the real one it pays from one
// friendbot account through channel accounts ("minions", each the sequence source of its own
// transactions), so concurrent requests fit in one ledger instead of queueing behind one source account.
import {
  Account,
  Keypair,
  Operation,
  StrKey,
  TimeoutInfinite,
  TransactionBuilder,
} from '@stellar/stellar-sdk';
import type { Core, Submission } from './core.ts';
import { badRequest, friendbotAccountExists, type Problem } from './problems.ts';
import type { LedgerGenesis } from './types.ts';

export const FRIENDBOT_STARTING_BALANCE = '10000';
const MINIONS = 4;

export interface FriendbotKeys {
  bot: Keypair;
  minions: Keypair[];
}

export function friendbotKeys(): FriendbotKeys {
  return { bot: Keypair.random(), minions: Array.from({ length: MINIONS }, () => Keypair.random()) };
}

/** The genesis plus the friendbot's accounts: the bot holds the lumens, the minions only their fees. */
export function withFriendbot(genesis: LedgerGenesis, keys: FriendbotKeys): LedgerGenesis {
  return {
    ...genesis,
    accounts: [
      ...genesis.accounts,
      { publicKey: keys.bot.publicKey(), nativeBalance: '100000000000' },
      ...keys.minions.map((minion) => ({ publicKey: minion.publicKey(), nativeBalance: '1000' })),
    ],
  };
}

const alreadyExists = (submission: Submission) =>
  submission.kind === 'recorded' &&
  !submission.record.successful &&
  submission.record.outcome.ops?.[0]?.code === 'op_already_exists';

export class Friendbot {
  private readonly core: Core;
  private readonly bot: Keypair;
  private readonly free: Keypair[];
  private readonly waiting: Array<(minion: Keypair) => void> = [];

  constructor(core: Core, keys: FriendbotKeys) {
    this.core = core;
    this.bot = keys.bot;
    this.free = [...keys.minions];
  }

  /** Funds `address`: its transaction (recorded, or as the ledger answered), or friendbot's problem. */
  async fund(address: string | null): Promise<Submission | Problem> {
    if (!address || !StrKey.isValidEd25519PublicKey(address))
      return badRequest('addr', 'base32 decode failed: not a valid account id (G…)');
    if (this.core.ledger.state.account(address)) return friendbotAccountExists();
    const minion = await this.acquire();
    try {
      const source = this.core.ledger.state.account(minion.publicKey());
      if (!source) throw new Error('friendbot minion missing from the ledger');
      const tx = new TransactionBuilder(new Account(minion.publicKey(), source.seqNum.toString()), {
        fee: String(this.core.ledger.state.baseFee),
        networkPassphrase: this.core.ledger.networkPassphrase,
      })
        .addOperation(
          Operation.createAccount({
            destination: address,
            startingBalance: FRIENDBOT_STARTING_BALANCE,
            source: this.bot.publicKey(),
          }),
        )
        .setTimeout(TimeoutInfinite)
        .build();
      tx.sign(minion, this.bot);
      let submission = this.core.submit(tx.toXDR(), { faults: false });
      if (submission.kind === 'pending') submission = await submission.settled;
      // Another request (or transaction) opened it first.
      return alreadyExists(submission) ? friendbotAccountExists() : submission;
    } finally {
      this.release(minion);
    }
  }

  private acquire(): Promise<Keypair> {
    const minion = this.free.pop();
    if (minion) return Promise.resolve(minion);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(minion: Keypair): void {
    const next = this.waiting.shift();
    if (next) next(minion);
    else this.free.push(minion);
  }
}
