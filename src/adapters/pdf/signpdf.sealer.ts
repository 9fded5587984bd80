import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib';
import { SignPdf } from '@signpdf/signpdf';
import { SUBFILTER_ADOBE_PKCS7_DETACHED, Signer } from '@signpdf/utils';
import type { PDFDocument } from 'pdf-lib';
import type { SealingKey } from '../seal/sealing-key';

/** Room for the CMS beside its certificates: the signed attributes, the signature, the structure. */
const CMS_ROOM_BYTES = 4096;

/** @signpdf's signer over a sealing key parsed once (its P12 signer parses the P12 on every call). */
class SealingKeySigner extends Signer {
  constructor(private readonly key: SealingKey) {
    super();
  }

  override async sign(pdf: Buffer, signingTime?: Date): Promise<Buffer> {
    return this.key.cms(pdf, signingTime ?? new Date());
  }
}

/**
 * The document saved and sealed: an invisible signature field whose detached CMS signature
 * (`adbe.pkcs7.detached`, SHA-256, the signing time, the certificate embedded) covers every byte of
 * the file but the signature itself, so any later change shows in every PDF reader.
 */
export async function sealedPdf(doc: PDFDocument, key: SealingKey, at: Date): Promise<Buffer> {
  pdflibAddPlaceholder({
    pdfDoc: doc,
    reason: 'Sealed on signing: any change since voids this signature',
    contactInfo: '',
    name: 'Facility Ops document seal',
    location: '',
    signingTime: at,
    // In hex digits, two a byte (an odd count would leave the file a byte short).
    signatureLength: 2 * (CMS_ROOM_BYTES + key.certificateBytes),
    subFilter: SUBFILTER_ADOBE_PKCS7_DETACHED,
    appName: 'Facility Ops',
  });
  const unsealed = Buffer.from(await doc.save());
  return new SignPdf().sign(unsealed, new SealingKeySigner(key), at);
}
