/**
 * Per-partition throughput meter of the local DynamoDB rules layer: capacity units consumed per partition
 * key value in one-second windows, and whether a partition has already used its second's share.
 *
 * Limits (Amazon DynamoDB Developer Guide, "Best practices for designing and using partition keys
 * effectively": https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html,
 * and "Service, account, and table quotas": https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html):
 * one partition serves at most 3,000 read capacity units and 1,000 write capacity units per second, in both
 * capacity modes; a table's partition and a global secondary index's partition are metered separately. An
 * on-demand table that exceeds them answers `ThrottlingException` with the throttling reason
 * `<Table|Index><Read|Write>KeyRangeThroughputExceeded` (API reference, "ThrottlingReason":
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ThrottlingReason.html).
 *
 * Windows are fixed seconds of the wall clock (`floor(ms / 1000)`): a request is refused when it arrives in a
 * second whose consumed units on its partition already reach the limit; the units a request consumes are
 * known only from the engine's answer, so the request that crosses the limit is itself served (DynamoDB
 * meters the same way, in arrears). Not emulated: burst capacity (unused capacity of the last 300 s),
 * adaptive capacity and split for heat, which make real DynamoDB more lenient, not less.
 */

/** Units per second one partition serves (3,000 RCU / 1,000 WCU). */
export const PARTITION_LIMITS = { read: 3000, write: 1000 } as const;

/** Read or write capacity. */
export type CapacityKind = keyof typeof PARTITION_LIMITS;

/** One partition's peak use, for reports. */
export interface PartitionPeak {
  /** `<table>` or `<table>/index/<index>`, then `|` and the partition key value (JSON of its wire form). */
  partition: string;
  /** Highest read units consumed in one second. */
  peakReadUnitsPerSecond: number;
  /** Highest write units consumed in one second. */
  peakWriteUnitsPerSecond: number;
}

interface Window {
  second: number;
  read: number;
  write: number;
}

/** Meters capacity units per partition; see the module doc. `limits` may be lowered (tests). */
export class PartitionMeter {
  private readonly windows = new Map<string, Window>();
  private readonly peaks = new Map<string, { read: number; write: number }>();

  constructor(readonly limits: { read: number; write: number } = PARTITION_LIMITS) {}

  private window(partition: string, nowMs: number): Window {
    const second = Math.floor(nowMs / 1000);
    let w = this.windows.get(partition);
    if (!w || w.second !== second) {
      if (this.windows.size > 50_000) this.prune(second);
      w = { second, read: 0, write: 0 };
      this.windows.set(partition, w);
    }
    return w;
  }

  private prune(second: number): void {
    for (const [k, w] of this.windows) if (w.second < second) this.windows.delete(k);
  }

  /** Whether `partition` has already consumed its `kind` limit in the second of `nowMs`. */
  isOver(partition: string, kind: CapacityKind, nowMs = Date.now()): boolean {
    const w = this.windows.get(partition);
    return !!w && w.second === Math.floor(nowMs / 1000) && w[kind] >= this.limits[kind];
  }

  /** Adds `units` (≥ 0) of `kind` consumed by `partition` in the second of `nowMs`. */
  record(partition: string, kind: CapacityKind, units: number, nowMs = Date.now()): void {
    if (!(units > 0)) return;
    const w = this.window(partition, nowMs);
    w[kind] += units;
    const p = this.peaks.get(partition) ?? { read: 0, write: 0 };
    p[kind] = Math.max(p[kind], w[kind]);
    this.peaks.set(partition, p);
  }

  /** The `n` partitions with the highest peak (write or read, relative to its limit), hottest first. */
  hottest(n = 10): PartitionPeak[] {
    const heat = (p: { read: number; write: number }) => Math.max(p.read / this.limits.read, p.write / this.limits.write);
    return [...this.peaks.entries()]
      .sort(([, a], [, b]) => heat(b) - heat(a))
      .slice(0, n)
      .map(([partition, p]) => ({ partition, peakReadUnitsPerSecond: round(p.read), peakWriteUnitsPerSecond: round(p.write) }));
  }
}

const round = (x: number) => Math.round(x * 10) / 10;
