/**
 * The legal wording of the signing page: the consumer disclosure the U.S. ESIGN Act (15 U.S.C.
 * 7001(c)) asks for before records are given electronically, in the style of the UETA, and the
 * sentence the signer agrees to. The page shows it, each signature records its version, and the
 * certificate page of every signed PDF prints it in full.
 *
 * To change the wording, edit it here and give CONSENT_VERSION a new value: signatures made under
 * the old wording keep naming the old version. Have counsel review any change.
 */
export const CONSENT_VERSION = 'esign-consent-2026-11';

export const CONSENT_TITLE = 'Consent to sign electronically';

/** The disclosure, one paragraph per entry; `facility` is the name of the facility asking. */
export function consentParagraphs(facility: string): string[] {
  return [
    `${facility} asks you to review and sign the documents on this page electronically. Under the ` +
      'U.S. Electronic Signatures in Global and National Commerce Act (ESIGN Act) and the Uniform ' +
      'Electronic Transactions Act (UETA) as adopted in your state, your electronic signature has ' +
      'the same legal effect as a handwritten one.',
    `Paper copy. You have the right to receive these documents on paper instead. To get a paper ` +
      `copy, or to sign on paper, contact ${facility}, before or after signing; there is no charge.`,
    `Withdrawing consent. You may withdraw this consent at any time before you sign: do not submit ` +
      `this page and tell ${facility}, which then gives you the documents on paper. Withdrawing does ` +
      'not undo a signature already given.',
    'Scope. This consent covers only the documents listed on this page.',
    'What you need. A device with a current web browser that can open PDF files, and a way to save ' +
      'or print them. You can download each document here, and after signing its signed copy, while ' +
      'this link is valid.',
  ];
}

/** The sentence next to the checkbox. */
export const CONSENT_AGREEMENT =
  'I have read the consent above. I agree to use electronic records and signatures for these ' +
  'documents, and I intend my typed name and drawn signature to be my signature.';

/** The whole wording as the certificate prints it. */
export function consentText(facility: string): string {
  return [CONSENT_TITLE, ...consentParagraphs(facility), CONSENT_AGREEMENT].join('\n\n');
}
