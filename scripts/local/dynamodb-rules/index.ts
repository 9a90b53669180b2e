/**
 * The local DynamoDB rules layer (docs/local-emulation.md#dynamodb): the proxy in front of the engine
 * (`proxy.ts`) and its parts — item sizes (`item-size.ts`), the per-partition throughput meter
 * (`throughput.ts`), the transaction lock table (`locks.ts`) and what a request touches (`requests.ts`).
 */
export { dynamoRulesReport, startRulesProxy, type RulesCounters, type RulesProxyOptions, type RulesProxyReport, type RunningRulesProxy } from './proxy.js';
export { itemSize, MAX_ITEM_BYTES, numberSize, valueSize, writeUnits, type WireItem, type WireValue } from './item-size.js';
export { PartitionMeter, PARTITION_LIMITS, type CapacityKind, type PartitionPeak } from './throughput.js';
export { TransactionLocks } from './locks.js';
export { itemIdentity, partitionIdentity, queryPartition, touchesOf, type KeySchema, type RequestTouches, type Touch } from './requests.js';
