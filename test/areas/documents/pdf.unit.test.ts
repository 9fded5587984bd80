import { printableText, renderPdf } from '../../../src/adapters/pdf/pdfkit.renderer';
import { fillTemplate, pdfFilename, personName } from '../../../src/kernel/templates';
import { pdfText } from '../../support/pdf-text';

describe('fillTemplate', () => {
  it('fills known placeholders, whatever their spacing and case', () => {
    expect(
      fillTemplate('{{tenant_name}} / {{ Unit_Name }} / {{FACILITY_NAME}}', {
        tenant_name: 'Ada Lovelace',
        unit_name: 'A-101',
        facility_name: 'Main Street',
      }),
    ).toBe('Ada Lovelace / A-101 / Main Street');
  });

  it('writes a dash for missing, blank and unknown values and leaves no braces', () => {
    expect(
      fillTemplate('{{tenant_name}}|{{unit_name}}|{{gate}}|{{}}|{{ a b }}', {
        tenant_name: null,
        unit_name: '  ',
      }),
    ).toBe('—|—|—|—|—');
  });

  it('fills in one pass: a value that looks like a placeholder stays as written', () => {
    expect(
      fillTemplate('{{tenant_name}} {{unit_name}}', { tenant_name: '{{unit_name}}', unit_name: 'B-7' }),
    ).toBe('{{unit_name}} B-7');
  });

  it('ignores inherited names', () => {
    expect(fillTemplate('{{constructor}} {{__proto__}}', {})).toBe('— —');
  });
});

describe('personName and pdfFilename', () => {
  it('joins the names present', () => {
    expect(personName('Ada', 'Lovelace')).toBe('Ada Lovelace');
    expect(personName(' ', 'Hopper')).toBe('Hopper');
    expect(personName('', null)).toBeNull();
  });

  it.each([
    ['Lease Agreement (signed)', 'lease-agreement-signed.pdf'],
    ['Zoë’s "rules" & Co.', 'zoe-s-rules-co.pdf'],
    ['契約書', 'document.pdf'],
    ['', 'document.pdf'],
    [`${'a'.repeat(79)} b`, `${'a'.repeat(79)}.pdf`],
  ])('names %j as %s', (description, filename) => {
    expect(pdfFilename(description)).toBe(filename);
  });
});

describe('printableText', () => {
  it('keeps Windows-1252 text, strips accents it lacks, and shows other scripts as "?"', () => {
    expect(printableText('Zoë Ünal — €5')).toBe('Zoë Ünal — €5');
    expect(printableText('Łukasz Dvořák')).toBe('Lukasz Dvorák');
    expect(printableText('李雷')).toBe('??');
  });

  it('turns tabs into spaces, keeps line breaks and drops control characters', () => {
    expect(printableText('a\tb\r\nc\u0007d\u200be')).toBe('a    b\ncde');
  });
});

describe('renderPdf', () => {
  const content = {
    header: 'Main Street',
    title: 'Lease',
    body: 'Tenant: Łukasz 李\n\nSecond paragraph.',
    createdAt: new Date('2026-01-01T00:00:00Z'),
  };

  it('renders text a PDF reader finds, the same bytes every time', async () => {
    const pdf = await renderPdf(content);
    expect(pdfText(pdf)).toContain('Main Street Lease Tenant: Lukasz ? Second paragraph. Page 1 of 1');
    expect((await renderPdf(content)).equals(pdf)).toBe(true);
  });

  it('renders an empty body as a page with the header and title only', async () => {
    expect(pdfText(await renderPdf({ ...content, body: '' }))).toContain('Main Street Lease Page 1 of 1');
  });
});
