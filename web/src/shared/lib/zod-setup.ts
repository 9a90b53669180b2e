/**
 * zod configuration for the browser. zod 4 probes `new Function` to decide whether to JIT-compile object
 * parsers; under the portal's Content-Security-Policy (script-src without 'unsafe-eval') that probe is a
 * reported violation. Parsing without JIT is fast enough for the portal's small payloads.
 *
 * Import this module BEFORE any module that builds schemas (the probe runs when a schema is created).
 */
import { z } from 'zod';

z.config({ jitless: true });
