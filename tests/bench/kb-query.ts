/**
 * kb-query: from a question's vector to the ranked chunks (with their text, file and position)
 * of a knowledge base of 50,000 chunks of 256 dimensions, through the knowledge service's own
 * `nearest` (the packed Float32 scan of vector-search.ts, then the k rows read from SQLite).
 *
 * The corpus (kb-corpus.ts): 2,000 generated files of 25 chunks each, drawn from a Zipf-like
 * vocabulary and embedded with the demo relay's embeddings model (its function, called directly:
 * the relay's HTTP round trips are not what this measures), written to a real SQLite file the way indexing
 * writes them. The questions are embedded the same way. In the same run, alternating with it,
 * the contender the issue measured: libsql's brute-force `ORDER BY vector_distance_cos` in SQL.
 * The pack is built from SQLite once after each change; that cost is reported apart
 * (`pack_build_ms`), since queries after the first reuse it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { embedText } from '../../electron/demo-relay/models/embeddings';
import { openDatabase } from '../../electron/main/services/database';
import { vectorToBytes } from '../../electron/main/services/embeddings/run-store';
import { openKnowledgeService } from '../../electron/main/services/knowledge';
import { PackedVectors } from '../../electron/main/services/knowledge/vector-search';
import type { Benchmark } from './bench';
import {
  CHUNKS_PER_FILE,
  corpusRandom,
  corpusSentence as sentence,
  FILES,
  WORDS_PER_CHUNK,
} from './kb-corpus';

const QUESTIONS = 40;
const RUNS = 5;
const K = 6;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

function median(values: number[]): number {
  return percentile(values, 50);
}

export const kbQuery: Benchmark = {
  name: 'kb-query',
  async run() {
    const dir = await mkdtemp(join(tmpdir(), 'relay-desktop-bench-kb-query-'));
    const db = await openDatabase({ path: join(dir, 'bench.db') });
    try {
      const knowledge = await openKnowledgeService({
        db,
        emit: () => undefined,
        client: () => Promise.reject(new Error('No relay in this benchmark.')),
        activeConnection: async () => 'bench',
        connectionNames: async () => new Map([['bench', 'Bench']]),
        readDocuments: () => Promise.reject(new Error('No documents in this benchmark.')),
        dialogs: { chooseOpenPaths: async () => [] },
      });
      const base = await knowledge.create('Bench corpus', 'demo-embedding');
      const next = corpusRandom(7);
      const built = performance.now();
      const now = new Date().toISOString();
      db.transaction(() => {
        for (let f = 0; f < FILES; f++) {
          const fileId = `file-${f}`;
          db.run(
            `INSERT INTO knowledge_files (id, kb_id, path, name, size, mtime_ms, content_hash,
               status, updated_at) VALUES (?, ?, ?, ?, 1000, 0, ?, 'ready', ?)`,
            [fileId, base.id, `/corpus/doc-${f}.md`, `doc-${f}.md`, `hash-${f}`, now],
          );
          for (let c = 0; c < CHUNKS_PER_FILE; c++) {
            const text = sentence(next, WORDS_PER_CHUNK);
            db.run(
              `INSERT INTO knowledge_chunks (kb_id, file_id, ord, text, hash, page, headings,
                 line_start, line_end, vector) VALUES (?, ?, ?, ?, ?, NULL, '[]', ?, ?, ?)`,
              [
                base.id,
                fileId,
                c,
                text,
                `h-${f}-${c}`,
                c * 4 + 1,
                c * 4 + 4,
                vectorToBytes(embedText(text)),
              ],
            );
          }
        }
        db.run('UPDATE knowledge_bases SET dimensions = 256 WHERE id = ?', [base.id]);
      });
      const corpusMs = performance.now() - built;
      const questions = Array.from({ length: QUESTIONS }, () => embedText(sentence(next, 8)));

      const packStart = performance.now();
      knowledge.nearest(base.id, questions[0]!, K);
      const packMs = performance.now() - packStart;

      const sql = (vector: number[]) =>
        db.all<{ id: number }>(
          `SELECT id FROM knowledge_chunks WHERE kb_id = ? AND vector IS NOT NULL
            ORDER BY vector_distance_cos(vector, vector32(?)) LIMIT ${K}`,
          [base.id, JSON.stringify(vector)],
        );
      let sqlWorks = true;
      try {
        sql(questions[0]!);
      } catch {
        sqlWorks = false;
      }

      // The scan alone, on a pack of the same rows: how much of a query is the scan.
      const alone = PackedVectors.fromBlobs(
        256,
        db.all<{ id: number; vector: ArrayBuffer }>(
          'SELECT id, vector FROM knowledge_chunks WHERE kb_id = ? AND vector IS NOT NULL ORDER BY id',
          [base.id],
        ),
      );
      const scanP95: number[] = [];
      const aloneP95: number[] = [];
      const sqlP95: number[] = [];
      let agree = 0;
      let compared = 0;
      // A warm-up run, then RUNS measured, the two contenders alternating per question.
      for (let run = 0; run <= RUNS; run++) {
        const scan: number[] = [];
        const scanAlone: number[] = [];
        const inSql: number[] = [];
        for (const question of questions) {
          const a = performance.now();
          const hits = knowledge.nearest(base.id, question, K);
          scan.push(performance.now() - a);
          const c = performance.now();
          alone.top(question, K);
          scanAlone.push(performance.now() - c);
          if (sqlWorks && run === 1) {
            const b = performance.now();
            const rows = sql(question);
            inSql.push(performance.now() - b);
            compared++;
            if (rows[0] !== undefined && String(rows[0].id) === hits[0]?.chunkId) agree++;
          } else if (sqlWorks && run > 1 && questions.indexOf(question) % 4 === 0) {
            const b = performance.now();
            sql(question);
            inSql.push(performance.now() - b);
          }
        }
        if (run === 0) continue;
        scanP95.push(percentile(scan, 95));
        aloneP95.push(percentile(scanAlone, 95));
        if (inSql.length > 0) sqlP95.push(percentile(inSql, 95));
      }

      const metrics: Record<string, number> = {
        query_p95_ms: Math.round(median(scanP95) * 100) / 100,
        scan_only_p95_ms: Math.round(median(aloneP95) * 100) / 100,
        pack_build_ms: Math.round(packMs),
        chunks: FILES * CHUNKS_PER_FILE,
      };
      if (sqlWorks) {
        metrics['sql_scan_p95_ms'] = Math.round(median(sqlP95) * 100) / 100;
        metrics['sql_over_scan'] = Math.round((median(sqlP95) / median(scanP95)) * 10) / 10;
        metrics['same_top_as_sql'] = compared === 0 ? 0 : agree / compared;
      }
      return {
        runs: RUNS,
        metrics,
        targets: { query_p95_ms: { max: 50 } },
        notes: [
          `${FILES} files × ${CHUNKS_PER_FILE} chunks of ${WORDS_PER_CHUNK} words, 256 dimensions (the demo relay's embeddings model), built and stored in ${Math.round(corpusMs / 1000)} s; ${QUESTIONS} questions of 8 words, top ${K}.`,
          'query_p95_ms: KnowledgeService.nearest (the packed scan, then the k rows with their file from SQLite), p95 per run, median of the runs.',
          'scan_only_p95_ms: PackedVectors.top alone on a pack of the same rows, right after each query (the rest of query_p95_ms is reading the k rows and their files).',
          'pack_build_ms: reading every vector from SQLite into the pack, once after the chunks change (the first question after indexing pays it).',
          sqlWorks
            ? 'sql_scan_p95_ms: libsql ORDER BY vector_distance_cos over the same rows, alternating with the scan (a quarter of the questions after the first run); same_top_as_sql: share of questions whose best chunk both agree on.'
            : 'libsql vector_distance_cos was not available here; no SQL contender.',
        ],
      };
    } finally {
      db.close();
      await rm(dir, { recursive: true, force: true });
    }
  },
};
