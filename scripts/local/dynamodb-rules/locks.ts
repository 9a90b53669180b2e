/**
 * The items of the TransactWriteItems requests in progress, for the local DynamoDB rules layer's
 * transaction-conflict rule (Amazon DynamoDB Developer Guide, "Managing complex workflows with DynamoDB
 * transactions", transaction conflict handling:
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis.html#transaction-conflict-handling):
 *
 *  - a PutItem, UpdateItem or DeleteItem of an item an ongoing TransactWriteItems touches is rejected with
 *    `TransactionConflictException`;
 *  - a TransactWriteItems with an item another ongoing TransactWriteItems touches is cancelled
 *    (`TransactionCanceledException`, reason `TransactionConflict` on that action).
 *
 * "Ongoing" here is what the proxy can see: the transaction's request has been received and the engine has
 * not answered it yet. Items are identified by a string (table and primary key; `requests.ts`).
 */

/** Item keys held by transactions in progress. */
export class TransactionLocks {
  private readonly held = new Set<string>();

  /** Whether an ongoing transaction touches `itemKey`. */
  isHeld(itemKey: string): boolean {
    return this.held.has(itemKey);
  }

  /** For each key, whether an ongoing transaction touches it. */
  conflicts(itemKeys: readonly string[]): boolean[] {
    return itemKeys.map((k) => this.held.has(k));
  }

  /**
   * Marks `itemKeys` as touched by a transaction in progress; returns the release function (idempotent).
   * @throws Error if a key is already held (callers check `conflicts` first, in the same tick).
   */
  acquire(itemKeys: readonly string[]): () => void {
    const keys = [...new Set(itemKeys)];
    for (const k of keys) if (this.held.has(k)) throw new Error(`item already in a transaction: ${k}`);
    for (const k of keys) this.held.add(k);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const k of keys) this.held.delete(k);
    };
  }

  /** Number of items currently held. */
  get size(): number {
    return this.held.size;
  }
}
