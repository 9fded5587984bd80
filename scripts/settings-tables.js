// The docs' tables of settings, written from the declarations in src/config.ts: each table stands
// between `<!-- settings: NAME ... -->` (or `all`) and `<!-- /settings -->` in a doc of docs/.
// `npm run schema:emit` writes them; `npm run check:generated` fails when one is stale.
const fs = require('node:fs');
const path = require('node:path');
const prettier = require('prettier');
const { SETTINGS } = require('../src/config');
const { settingsOf, settingsTable } = require('../src/settings');

const root = path.resolve(__dirname, '..');
const DOCS = ['operations.md', 'documents-and-esign.md', 'webhooks.md', 'payments.md'];
const TABLE = /(<!-- settings: ([A-Z0-9_ ]+|all) -->\n)[\s\S]*?(<!-- \/settings -->)/g;

/** Each doc with settings tables: its path, its text as committed, and as the declarations write it. */
async function settingsDocs() {
  const all = settingsOf(SETTINGS);
  const byName = new Map(all.map((setting) => [setting.name, setting]));
  const docs = [];
  for (const doc of DOCS) {
    const file = path.join(root, 'docs', doc);
    const committed = fs.readFileSync(file, 'utf8');
    const written = committed.replace(TABLE, (_, open, names, close) => {
      const settings =
        names === 'all'
          ? all
          : names.split(' ').map((name) => {
              const setting = byName.get(name);
              if (!setting) throw new Error(`docs/${doc}: no setting ${name} is declared in src/config.ts`);
              return setting;
            });
      return `${open}\n${settingsTable(settings)}\n\n${close}`;
    });
    const options = await prettier.resolveConfig(file);
    docs.push({ file, committed, expected: await prettier.format(written, { ...options, filepath: file }) });
  }
  return docs;
}

module.exports = { settingsDocs };
