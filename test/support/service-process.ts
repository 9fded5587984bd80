import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { transformFileSync } from '@swc/core';

const ROOT = path.resolve(__dirname, '../..');

/**
 * The service's sources compiled (by swc, as jest compiles them; tsc takes minutes on a busy
 * machine) into `outDir`/dist, with the assets `npm run build` copies and bin/facility-ops.js
 * beside them: the real command line, to run as a child process. Answers the bin's path.
 */
export function compileService(outDir: string): string {
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const from = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(from);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
        const to = path
          .join(outDir, 'dist', path.relative(path.join(ROOT, 'src'), from))
          .replace(/\.ts$/, '.js');
        fs.mkdirSync(path.dirname(to), { recursive: true });
        const { code } = transformFileSync(from, {
          jsc: {
            target: 'es2022',
            parser: { syntax: 'typescript', decorators: true },
            transform: { legacyDecorator: true, decoratorMetadata: true },
            keepClassNames: true,
          },
          module: { type: 'commonjs' },
          sourceMaps: false,
        });
        fs.writeFileSync(to, code);
      } else if (entry.name.endsWith('.json') || entry.name.endsWith('.graphql')) {
        const to = path.join(outDir, 'dist', path.relative(path.join(ROOT, 'src'), from));
        fs.mkdirSync(path.dirname(to), { recursive: true });
        fs.copyFileSync(from, to);
      }
    }
  };
  walk(path.join(ROOT, 'src'));
  fs.cpSync(
    path.join(ROOT, 'src', 'areas/esign/signing/assets'),
    path.join(outDir, 'dist', 'areas/esign/signing/assets'),
    { recursive: true },
  );
  fs.mkdirSync(path.join(outDir, 'bin'), { recursive: true });
  const bin = path.join(outDir, 'bin', 'facility-ops.js');
  fs.copyFileSync(path.join(ROOT, 'bin', 'facility-ops.js'), bin);
  return bin;
}

/** A running `facility-ops serve`: its URL, what it wrote, and how it ended. */
export interface ServiceProcess {
  child: ChildProcessWithoutNullStreams;
  url: string;
  stderr(): string;
  exited: Promise<number | null>;
  /** Resolves once stderr holds a line matching `pattern`. */
  stderrLine(pattern: RegExp): Promise<void>;
}

/** Starts `facility-ops serve` and resolves once it listens. */
export async function startService(bin: string, env: NodeJS.ProcessEnv): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [bin, 'serve'], {
    env: { ...env, NODE_PATH: path.join(ROOT, 'node_modules') },
  });
  let stdout = '';
  let stderr = '';
  const waiters: Array<{ pattern: RegExp; resolve: () => void }> = [];
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    for (const waiter of [...waiters]) {
      if (waiter.pattern.test(stderr)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /facility-ops listening on (\S+)/.exec(stdout);
      if (match) resolve(match[1]);
    });
    void exited.then(() => reject(new Error(`exited before listening:\n${stdout}${stderr}`)));
  });
  return {
    child,
    url,
    stderr: () => stderr,
    exited,
    stderrLine: (pattern) =>
      pattern.test(stderr) ? Promise.resolve() : new Promise((resolve) => waiters.push({ pattern, resolve })),
  };
}
