// Checks that every relative link in the README and docs/ names a file that exists, and a heading
// that exists in it when the link has an anchor. Prints each dead link; exits 1 when there is any.
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const files = [
  'README.md',
  'bench/README.md',
  ...fs.readdirSync(path.join(root, 'docs')).map((f) => `docs/${f}`),
].filter((f) => f.endsWith('.md'));

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as dashes. */
function slug(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(file) {
  const text = fs.readFileSync(path.join(root, file), 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#{1,6}\s+(.+)$/gm)].map((m) => slug(m[1])));
}

const dead = [];
for (const file of files) {
  const text = fs.readFileSync(path.join(root, file), 'utf8').replace(/```[\s\S]*?```/g, '');
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z]+:/i.test(target)) continue;
    const [where, anchor] = target.split('#');
    const linked =
      where === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), where));
    if (!fs.existsSync(path.join(root, linked))) {
      dead.push(`${file}: ${target} (no file ${linked})`);
      continue;
    }
    if (anchor && linked.endsWith('.md') && !anchorsOf(linked).has(anchor)) {
      dead.push(`${file}: ${target} (no heading #${anchor} in ${linked})`);
    }
  }
}
if (dead.length > 0) {
  console.error(`dead links:\n  ${dead.join('\n  ')}`);
  process.exit(1);
}
console.log(`links checked in ${files.length} files: none dead`);
