/** ASN.1 schemas specific to ICAO 9303 / BSI TR-03110, declared with @peculiar/asn1-schema. */
import { AsnArray, AsnProp, AsnPropTypes, AsnType, AsnTypeTypes } from '@peculiar/asn1-schema';
import { AlgorithmIdentifier, Certificate } from '@peculiar/asn1-x509';
import { Attribute } from '@peculiar/asn1-cms';

/** 9303-10 §4.6.2.2: DataGroupHash ::= SEQUENCE { dataGroupNumber, dataGroupHashValue OCTET STRING } */
export class DataGroupHash {
  @AsnProp({ type: AsnPropTypes.Integer }) dataGroupNumber = 0;
  @AsnProp({ type: AsnPropTypes.OctetString }) dataGroupHashValue = new ArrayBuffer(0);
}

/** 9303-10 §4.6.2.2: LDSVersionInfo ::= SEQUENCE { ldsVersion PrintableString, unicodeVersion PrintableString } */
export class LdsVersionInfo {
  @AsnProp({ type: AsnPropTypes.PrintableString }) ldsVersion = '';
  @AsnProp({ type: AsnPropTypes.PrintableString }) unicodeVersion = '';
}

/** 9303-10 §4.6.2.2: LDSSecurityObject v0 (LDS 1.7) and v1 (LDS 1.8, with ldsVersionInfo) */
export class LdsSecurityObject {
  @AsnProp({ type: AsnPropTypes.Integer }) version = 0;
  @AsnProp({ type: AlgorithmIdentifier }) hashAlgorithm = new AlgorithmIdentifier();
  @AsnProp({ type: DataGroupHash, repeated: 'sequence' }) dataGroupHashValues: DataGroupHash[] = [];
  @AsnProp({ type: LdsVersionInfo, optional: true }) ldsVersionInfo?: LdsVersionInfo;
}

/** BSI TR-03110-3 A.1.1 / 9303-11 §9.2: SecurityInfo ::= SEQUENCE { protocol, requiredData ANY, optionalData ANY OPTIONAL } */
export class SecurityInfo {
  @AsnProp({ type: AsnPropTypes.ObjectIdentifier }) protocol = '';
  @AsnProp({ type: AsnPropTypes.Any }) requiredData = new ArrayBuffer(0);
  @AsnProp({ type: AsnPropTypes.Any, optional: true }) optionalData?: ArrayBuffer;
}

@AsnType({ type: AsnTypeTypes.Set, itemType: SecurityInfo })
export class SecurityInfos extends AsnArray<SecurityInfo> {
  constructor(items?: SecurityInfo[]) {
    super(items);
    Object.setPrototypeOf(this, SecurityInfos.prototype);
  }
}

@AsnType({ type: AsnTypeTypes.Set, itemType: Certificate })
export class CertificateSet extends AsnArray<Certificate> {
  constructor(items?: Certificate[]) {
    super(items);
    Object.setPrototypeOf(this, CertificateSet.prototype);
  }
}

/** RFC 5652 §5.4: SignedAttributes ::= SET OF Attribute, as the specimen signer encodes them. */
@AsnType({ type: AsnTypeTypes.Set, itemType: Attribute })
export class AttributeSet extends AsnArray<Attribute> {
  constructor(items?: Attribute[]) {
    super(items);
    Object.setPrototypeOf(this, AttributeSet.prototype);
  }
}
