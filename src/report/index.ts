/**
 * Reports: the record schema matchers write (more to come: suite aggregation, renderers, shard
 * merge).
 * @packageDocumentation
 */
export {
  type ClassRecord,
  type CoherenceData,
  type CrosscheckRecord,
  coherenceRecord,
  commonTags,
  type DetectionData,
  detectionRecord,
  type ErrorData,
  type EstimateRecord,
  errorRecord,
  type JsonValue,
  parseRecord,
  type RankingData,
  RECORD_KINDS,
  RECORD_SCHEMA,
  RECORD_VERSION,
  type RecordBase,
  type RecordContext,
  type RecordData,
  type RecordKind,
  rankingRecord,
  serializeRecord,
  type TestIdentity,
  type WitnessRecord,
} from './record.ts';
