//! PKCS#7 enveloped data, decrypted as hiera-eyaml's `Pkcs7.decrypt` has
//! Ruby's OpenSSL do it (`OpenSSL::PKCS7.new(der).decrypt(key, cert)`):
//! RSA key transport (PKCS#1 v1.5) to the recipient the certificate names,
//! AES-CBC content encryption (hiera-eyaml's `eyaml encrypt` uses
//! AES-256-CBC; AES-128 and AES-192 are accepted too).
//!
//! Errors are OpenSSL's own reasons, as Ruby's message shows them ("Could
//! not parse the PKCS7: no start line", "private key does not match
//! certificate", "bad decrypt", ...). As OpenSSL's `PKCS7_dataDecode` does
//! against Bleichenbacher-style (MMA) attacks, an encrypted key that does
//! not decrypt is replaced by a random one, so that a bad RSA padding and a
//! bad content padding end in the same "bad decrypt"; RSA decryption is
//! blinded (see README.md, "eyaml", for the RUSTSEC-2023-0071 exposure).

use aes::cipher::{block_padding::Pkcs7, BlockDecryptMut, KeyIvInit};
use cms::content_info::ContentInfo;
use cms::enveloped_data::{EnvelopedData, RecipientIdentifier, RecipientInfo};
use rand_core::{OsRng, RngCore};
use rsa::{Pkcs1v15Encrypt, RsaPrivateKey};
use x509_cert::der::{self, Decode, Encode};

use super::keys::KeyPair;

const ID_ENVELOPED_DATA: der::oid::ObjectIdentifier =
    der::oid::ObjectIdentifier::new_unwrap("1.2.840.113549.1.7.3");
const RSA_ENCRYPTION: der::oid::ObjectIdentifier =
    der::oid::ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.1");
const AES_128_CBC: der::oid::ObjectIdentifier =
    der::oid::ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.1.2");
const AES_192_CBC: der::oid::ObjectIdentifier =
    der::oid::ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.1.22");
const AES_256_CBC: der::oid::ObjectIdentifier =
    der::oid::ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.1.42");

/// Decrypts the DER bytes of a PKCS#7 envelope with `keys`; the error is
/// the message Ruby's OpenSSL gives.
pub(crate) fn decrypt(der_bytes: &[u8], keys: &KeyPair) -> Result<Vec<u8>, String> {
    let envelope =
        parse(der_bytes).ok_or_else(|| "Could not parse the PKCS7: no start line".to_string())?;
    let Envelope::Enveloped(env) = envelope else {
        return Err("wrong content type".into());
    };
    if !keys.matches {
        return Err("private key does not match certificate".into());
    }
    // The recipient the certificate names (issuer and serial number).
    let ktri = env
        .recip_infos
        .0
        .iter()
        .find_map(|ri| match ri {
            RecipientInfo::Ktri(k) => match &k.rid {
                RecipientIdentifier::IssuerAndSerialNumber(is)
                    if is.serial_number == keys.serial
                        && is.issuer.to_der().ok().as_deref() == Some(&keys.issuer[..]) =>
                {
                    Some(k)
                }
                _ => None,
            },
            _ => None,
        })
        .ok_or_else(|| "no recipient matches certificate".to_string())?;
    let alg = &env.encrypted_content.content_enc_alg;
    let key_len = match alg.oid {
        AES_128_CBC => 16,
        AES_192_CBC => 24,
        AES_256_CBC => 32,
        _ => return Err("unsupported cipher type".into()),
    };
    let iv = alg
        .parameters
        .as_ref()
        .and_then(|p| p.decode_as::<der::asn1::OctetString>().ok())
        .filter(|iv| iv.as_bytes().len() == 16)
        .ok_or_else(|| "cipher parameter error".to_string())?;
    let Some(content) = &env.encrypted_content.encrypted_content else {
        return Err("no content".into());
    };
    let content = content.as_bytes();
    // A key that does not decrypt, or not to the cipher's length, becomes a
    // random one (OpenSSL's MMA defence), and the content is decrypted with
    // it all the same, so that both failures take the same steps. OpenSSL
    // then hands back whatever that random key "decrypts" when its padding
    // happens to check out (about one time in 256): a garbage value, and a
    // different one at each try. Here a rejected key always ends in the
    // "bad decrypt" that OpenSSL gives the other 255 times.
    let decrypted = if ktri.key_enc_alg.oid == RSA_ENCRYPTION {
        keys.private
            .decrypt_blinded(&mut OsRng, Pkcs1v15Encrypt, ktri.enc_key.as_bytes())
            .ok()
            .filter(|k| k.len() == key_len)
    } else {
        None
    };
    let rejected = decrypted.is_none();
    let mut key = decrypted.unwrap_or_else(|| {
        let mut k = vec![0u8; key_len];
        OsRng.fill_bytes(&mut k);
        k
    });
    let plain = if content.len() % 16 != 0 {
        Err("wrong final block length".to_string())
    } else {
        cbc_decrypt(&key, iv.as_bytes(), content)
    };
    key.iter_mut().for_each(|b| *b = 0);
    match plain {
        Ok(mut garbage) if rejected => {
            garbage.iter_mut().for_each(|b| *b = 0);
            Err("bad decrypt".into())
        }
        outcome => outcome,
    }
}

/// AES-CBC with PKCS#7 padding, for a 16, 24 or 32 byte key.
fn cbc_decrypt(key: &[u8], iv: &[u8], content: &[u8]) -> Result<Vec<u8>, String> {
    fn run<C>(key: &[u8], iv: &[u8], content: &[u8]) -> Result<Vec<u8>, String>
    where
        C: aes::cipher::BlockDecryptMut + aes::cipher::BlockCipher + aes::cipher::KeyInit,
    {
        let bad = || "bad decrypt".to_string();
        let mut buf = content.to_vec();
        let n = cbc::Decryptor::<C>::new_from_slices(key, iv)
            .map_err(|_| bad())?
            .decrypt_padded_mut::<Pkcs7>(&mut buf)
            .map_err(|_| bad())?
            .len();
        buf.truncate(n);
        Ok(buf)
    }
    match key.len() {
        16 => run::<aes::Aes128>(key, iv, content),
        24 => run::<aes::Aes192>(key, iv, content),
        _ => run::<aes::Aes256>(key, iv, content),
    }
}

/// What a PKCS#7 structure holds.
enum Envelope {
    Enveloped(Box<EnvelopedData>),
    /// A PKCS#7 of another content type (signed data, ...).
    Other,
}

/// Parses a PKCS#7 ContentInfo as OpenSSL's `d2i_PKCS7` does: one
/// structure at the start of the bytes (what follows it is ignored).
fn parse(bytes: &[u8]) -> Option<Envelope> {
    let mut reader = der::SliceReader::new(bytes).ok()?;
    let ci = ContentInfo::decode(&mut reader).ok()?;
    if ci.content_type != ID_ENVELOPED_DATA {
        return Some(Envelope::Other);
    }
    let env = ci.content.decode_as::<EnvelopedData>().ok()?;
    Some(Envelope::Enveloped(Box::new(env)))
}

/// The RSA private key of a PEM (PKCS#1 `RSA PRIVATE KEY` or PKCS#8
/// `PRIVATE KEY`) or DER text, as `OpenSSL::PKey::RSA.new` reads one.
pub(crate) fn private_key(pem: &[u8]) -> Result<RsaPrivateKey, String> {
    use rsa::pkcs1::DecodeRsaPrivateKey;
    use rsa::pkcs8::DecodePrivateKey;
    let unsupported = || "Neither PUB key nor PRIV key: unsupported".to_string();
    if let Ok(k) =
        RsaPrivateKey::from_pkcs1_der(pem).or_else(|_| RsaPrivateKey::from_pkcs8_der(pem))
    {
        return Ok(k);
    }
    let text = std::str::from_utf8(pem).map_err(|_| unsupported())?;
    for (label, pkcs8) in [("RSA PRIVATE KEY", false), ("PRIVATE KEY", true)] {
        if let Some(block) = pem_block(text, label) {
            let k = if pkcs8 {
                RsaPrivateKey::from_pkcs8_pem(block).ok()
            } else {
                RsaPrivateKey::from_pkcs1_pem(block).ok()
            };
            return k.ok_or_else(unsupported);
        }
    }
    Err(unsupported())
}

/// The first `-----BEGIN label-----` ... `-----END label-----` block of a
/// text (OpenSSL's PEM reader skips what comes before it).
fn pem_block<'a>(text: &'a str, label: &str) -> Option<&'a str> {
    let begin = format!("-----BEGIN {label}-----");
    let end = format!("-----END {label}-----");
    let start = text.find(&begin)?;
    let stop = text[start..].find(&end)? + start + end.len();
    Some(&text[start..stop])
}

/// A certificate's issuer (DER), serial number and RSA public key, as
/// `OpenSSL::X509::Certificate.new` reads a PEM or DER certificate.
pub(crate) fn certificate(
    pem: &[u8],
) -> Result<
    (
        Vec<u8>,
        x509_cert::serial_number::SerialNumber,
        Option<rsa::RsaPublicKey>,
    ),
    String,
> {
    use x509_cert::der::DecodePem;
    use x509_cert::Certificate;
    let cert = Certificate::from_der(pem)
        .ok()
        .or_else(|| {
            let text = std::str::from_utf8(pem).ok()?;
            Certificate::from_pem(pem_block(text, "CERTIFICATE")?).ok()
        })
        .ok_or_else(|| "PEM_read_bio_X509: no start line".to_string())?;
    let tbs = cert.tbs_certificate;
    let issuer = tbs
        .issuer
        .to_der()
        .map_err(|_| "PEM_read_bio_X509: no start line".to_string())?;
    let public = tbs.subject_public_key_info.to_der().ok().and_then(|spki| {
        use rsa::pkcs8::DecodePublicKey;
        rsa::RsaPublicKey::from_public_key_der(&spki).ok()
    });
    Ok((issuer, tbs.serial_number, public))
}
