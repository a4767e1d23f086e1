/**
 * Which protocol replays which benchmark. Data converted to the unified
 * format runs under the protocol of the benchmark it came from.
 */
import { locomoProtocol } from "../benchmarks/locomo/protocol.ts";
import { longmemevalProtocol } from "../benchmarks/longmemeval/protocol.ts";
import { memconflictProtocol } from "../benchmarks/memconflict/protocol.ts";
import { memoraProtocol } from "../benchmarks/memora/protocol.ts";
import { memoryagentbenchProtocol } from "../benchmarks/memoryagentbench/protocol.ts";
import { realmemProtocol } from "../benchmarks/realmem/protocol.ts";
import { subtlememoryProtocol } from "../benchmarks/subtlememory/protocol.ts";
import { makeProtocol, type ProtocolFactory } from "./protocol.ts";

const PROTOCOLS: Record<string, ProtocolFactory> = {
  subtlememory: subtlememoryProtocol,
  realmem: realmemProtocol,
  memoryagentbench: memoryagentbenchProtocol,
  memora: memoraProtocol,
  memconflict: memconflictProtocol,
  longmemeval: longmemevalProtocol,
  locomo: locomoProtocol,
  unified: (options) => makeProtocol({ depth: 10 }, options),
};

export function protocolFor(benchmark: string): ProtocolFactory {
  return PROTOCOLS[benchmark] ?? PROTOCOLS.unified!;
}
