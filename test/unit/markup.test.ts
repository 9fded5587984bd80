import { markup } from '../../src/kernel/markup';

describe('the markup tag', () => {
  it('escapes text, inserts its own markup as it is, and escapes text given in a list', () => {
    const name = '<b>"Ann" & \'Bo\'</b>';
    const items = [markup`<li>${name}</li>`, '<i>raw</i>'];
    expect(String(markup`<ul title="${name}">${items}</ul>`)).toBe(
      '<ul title="&lt;b&gt;&quot;Ann&quot; &amp; &#39;Bo&#39;&lt;/b&gt;">' +
        '<li>&lt;b&gt;&quot;Ann&quot; &amp; &#39;Bo&#39;&lt;/b&gt;</li>&lt;i&gt;raw&lt;/i&gt;</ul>',
    );
  });
});
