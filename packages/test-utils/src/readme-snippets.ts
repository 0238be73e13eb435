import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import ts from 'typescript';

/** One fenced code block of a Markdown file. */
export interface MarkdownSnippet {
  /** The fence's language (`ts`, `sh`, ...; empty when none). */
  lang: string;
  /** The code between the fences. */
  code: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The nearest heading above it, without the `#`s. */
  heading: string;
}

/**
 * Every fenced code block of a Markdown file, in order.
 * @param file - path of the Markdown file
 */
export function readSnippets(file: string): MarkdownSnippet[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const snippets: MarkdownSnippet[] = [];
  let heading = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fence = /^```(\S*)\s*$/.exec(line);
    if (!fence) {
      const h = /^#{1,6}\s+(.*)$/.exec(line);
      if (h) heading = h[1]!.trim();
      continue;
    }
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]!); i++) body.push(lines[i]!);
    snippets.push({ lang: fence[1] ?? '', code: body.join('\n'), line: start + 1, heading });
  }
  return snippets;
}

/**
 * The TypeScript snippets of a README that are complete programs: those with an `import` line, except a snippet
 * whose first line is a comment starting with `// continues` (it says what it takes from the reader's code). A
 * snippet without imports continues the one before it and is not checked on its own either.
 * @param file - path of the Markdown file
 */
export function programSnippets(file: string): MarkdownSnippet[] {
  return readSnippets(file).filter(
    (s) => s.lang === 'ts' && /^import\s/m.test(s.code) && !/^\s*\/\/ continues\b/i.test(s.code),
  );
}

/**
 * The first snippet of `lang` under the heading that starts with `heading`.
 * @throws Error naming the file when there is none (the README changed: the test must follow it)
 */
export function snippetUnder(file: string, heading: string, lang = 'ts'): MarkdownSnippet {
  const found = readSnippets(file).find((s) => s.lang === lang && s.heading.startsWith(heading));
  if (!found) throw new Error(`${file}: no \`\`\`${lang} block under a heading starting with "${heading}"`);
  return found;
}

/**
 * Typechecks snippets as ES modules (top-level await allowed) against the packages installed at `repoRoot`, with
 * the repository's strict compiler settings.
 * @param repoRoot - the monorepo root (its node_modules resolves the packages and their types)
 * @param snippets - the snippets, each with a name for the report
 * @returns one line per diagnostic, `<name>:<line>: <message>`; empty when every snippet typechecks
 */
export function typecheckSnippets(
  repoRoot: string,
  snippets: Array<{ name: string; code: string }>,
): string[] {
  // Under the repository's node_modules, so imports resolve as in a project that installed the packages.
  const dir = join(repoRoot, 'node_modules', '.cache', `readme-snippets-${randomUUID().slice(0, 8)}`);
  mkdirSync(dir, { recursive: true });
  try {
    const files = snippets.map((snippet, i) => {
      const file = join(dir, `snippet-${i}.mts`);
      writeFileSync(file, snippet.code);
      return { file, name: snippet.name };
    });
    const program = ts.createProgram(
      files.map((f) => f.file),
      {
        target: ts.ScriptTarget.ES2022,
        lib: ['lib.es2022.d.ts'],
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        types: ['node'],
        typeRoots: [join(repoRoot, 'node_modules', '@types')],
        strict: true,
        esModuleInterop: true,
        skipLibCheck: true,
        noEmit: true,
      },
    );
    const byFile = new Map(files.map((f) => [f.file, f.name]));
    return ts.getPreEmitDiagnostics(program).map((d) => {
      const name = (d.file && byFile.get(d.file.fileName)) ?? d.file?.fileName ?? '(program)';
      const line =
        d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
      return `${name}:${line}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A TypeScript snippet as an ES module Node runs (types stripped, nothing else changed).
 * @param code - the snippet
 */
export function transpileSnippet(code: string): string {
  return ts.transpileModule(code, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
}
