// SPDX-License-Identifier: Apache-2.0
#include "selfsignedpair.h"

#include "os/uniquefd.h"
#include "tlserror.h"

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace servelab::tls {

namespace {

struct FileCloser
{
    void operator()(FILE *f) const { std::fclose(f); }
};

bool makeFolders(const std::string &path)
{
    for (std::size_t slash = path.find('/', 1);; slash = path.find('/', slash + 1)) {
        const std::string part = path.substr(0, slash);
        if (mkdir(part.c_str(), 0700) != 0 && errno != EEXIST)
            return false;
        if (slash == std::string::npos)
            return true;
    }
}

bool addExtension(X509 *certificate, int nid, const char *value)
{
    X509V3_CTX context;
    X509V3_set_ctx_nodb(&context);
    X509V3_set_ctx(&context, certificate, certificate, nullptr, nullptr, 0);
    X509_EXTENSION *extension = X509V3_EXT_conf_nid(nullptr, &context, nid, value);
    if (!extension)
        return false;
    const bool added = X509_add_ext(certificate, extension, -1) == 1;
    X509_EXTENSION_free(extension);
    return added;
}

// Writes with `write` to a temporary file beside `path`, then renames it there.
template<typename Write>
bool writeAtomically(const std::string &path, mode_t mode, Write write, std::string *error)
{
    const std::string temporary = path + ".tmp" + std::to_string(getpid());
    os::UniqueFd fd(::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode));
    std::unique_ptr<FILE, FileCloser> file(fd ? fdopen(fd.get(), "w") : nullptr);
    if (!file) {
        *error = "cannot write " + temporary + ": " + std::strerror(errno);
        return false;
    }
    fd.release(); // the FILE owns it now
    const bool written =
        write(file.get()) && std::fflush(file.get()) == 0 && fsync(fileno(file.get())) == 0;
    file.reset();
    if (!written || std::rename(temporary.c_str(), path.c_str()) != 0) {
        *error = "cannot write " + path + ": " + takeErrors(std::strerror(errno));
        std::remove(temporary.c_str());
        return false;
    }
    return true;
}

} // namespace

std::string SelfSignedPair::defaultFolder()
{
    if (const char *cache = std::getenv("XDG_CACHE_HOME"); cache && *cache == '/')
        return std::string(cache) + "/servelab/tls";
    const char *home = std::getenv("HOME");
    return std::string(home && *home ? home : "/tmp") + "/.cache/servelab/tls";
}

bool SelfSignedPair::ensure(const std::string &folder, Key key, std::string *certificatePath,
                            std::string *keyPath, std::string *error)
{
    const std::string stem =
        folder + (key == Key::EcdsaP256 ? "/localhost-p256" : "/localhost-rsa2048");
    *certificatePath = stem + ".crt";
    *keyPath = stem + ".key";
    if (access(certificatePath->c_str(), R_OK) == 0 && access(keyPath->c_str(), R_OK) == 0)
        return true;
    if (!makeFolders(folder)) {
        *error = "cannot create " + folder + ": " + std::strerror(errno);
        return false;
    }
    // Two processes starting at once must not pair one's key with the other's certificate.
    const std::string lockPath = folder + "/.lock";
    // Held until this returns: closing it releases the lock.
    const os::UniqueFd lock(::open(lockPath.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600));
    if (!lock || flock(lock.get(), LOCK_EX) != 0) {
        *error = "cannot lock " + lockPath + ": " + std::strerror(errno);
        return false;
    }
    if (access(certificatePath->c_str(), R_OK) == 0 && access(keyPath->c_str(), R_OK) == 0)
        return true; // made by the other one
    std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> pair(
        key == Key::EcdsaP256 ? EVP_EC_gen("P-256") : EVP_RSA_gen(2048), &EVP_PKEY_free);
    std::unique_ptr<X509, decltype(&X509_free)> certificate(X509_new(), &X509_free);
    if (!pair || !certificate) {
        *error = "cannot generate a key: " + takeErrors();
        return false;
    }
    X509 *c = certificate.get();
    X509_set_version(c, 2);
    ASN1_INTEGER_set(X509_get_serialNumber(c), long(time(nullptr)));
    X509_gmtime_adj(X509_getm_notBefore(c), -3600);
    X509_gmtime_adj(X509_getm_notAfter(c), 10L * 365 * 24 * 3600);
    X509_set_pubkey(c, pair.get());
    X509_NAME *name = X509_get_subject_name(c);
    X509_NAME_add_entry_by_txt(name, "O", MBSTRING_ASC,
                               reinterpret_cast<const unsigned char *>("ServeLab"), -1, -1, 0);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                               reinterpret_cast<const unsigned char *>("localhost"), -1, -1, 0);
    X509_set_issuer_name(c, name);
    if (!addExtension(c, NID_basic_constraints, "critical,CA:TRUE") ||
        !addExtension(c, NID_key_usage, "critical,digitalSignature,keyCertSign") ||
        !addExtension(c, NID_subject_alt_name, "DNS:localhost,IP:127.0.0.1,IP:::1") ||
        !addExtension(c, NID_subject_key_identifier, "hash") ||
        X509_sign(c, pair.get(), EVP_sha256()) == 0) {
        *error = "cannot sign the certificate: " + takeErrors();
        return false;
    }
    return writeAtomically(
               *keyPath, 0600,
               [&](FILE *f) {
                   return PEM_write_PrivateKey(f, pair.get(), nullptr, nullptr, 0, nullptr,
                                               nullptr) == 1;
               },
               error) &&
           writeAtomically(
               *certificatePath, 0644, [&](FILE *f) { return PEM_write_X509(f, c) == 1; }, error);
}

} // namespace servelab::tls
