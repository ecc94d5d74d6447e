// zod/mini with English issue messages: every schema under lib/ is built from this module (never from
// 'zod' or 'zod/mini' directly; test/unit/layers.test.ts holds to it), so whichever bundle parses
// anything, an API function or a worker, has the locale set before its first parse.
import { en } from 'zod/locales';
import { config } from 'zod/mini';

// zod/mini ships no locale: without one every issue reads "Invalid input". `en` alone, imported by
// name: the `z.locales` namespace would bundle every language.
config(en());

export * from 'zod/mini';
