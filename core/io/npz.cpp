#include "io/npz.h"

#include "engine/options.h"

#include <algorithm>
#include <cstring>
#include <zip.h>

namespace attn {

// The archive's bytes as a libzip source. It remembers where its last read started, so
// that the offset of a stored member's data in the archive is known without parsing
// the zip headers a second time (see read()).
struct NpzReader::Source {
    std::span<const std::byte> bytes;
    std::uint64_t position = 0;
    std::uint64_t lastRead = 0;
    zip_error_t error{};

    static zip_int64_t callback(void* state, void* data, zip_uint64_t length,
                                zip_source_cmd_t command)
    {
        auto& self = *static_cast<Source*>(state);
        const std::uint64_t size = self.bytes.size();
        switch (command) {
        case ZIP_SOURCE_OPEN:
            self.position = 0;
            return 0;
        case ZIP_SOURCE_READ: {
            const std::uint64_t n =
                std::min<std::uint64_t>(length, size - std::min(size, self.position));
            if (n > 0)
                std::memcpy(data, self.bytes.data() + self.position, n);
            self.lastRead = self.position;
            self.position += n;
            return zip_int64_t(n);
        }
        case ZIP_SOURCE_CLOSE:
        case ZIP_SOURCE_FREE:
            return 0;
        case ZIP_SOURCE_STAT: {
            if (length < sizeof(zip_stat_t))
                return -1;
            auto* st = static_cast<zip_stat_t*>(data);
            zip_stat_init(st);
            st->size = size;
            st->valid |= ZIP_STAT_SIZE;
            return sizeof(zip_stat_t);
        }
        case ZIP_SOURCE_ERROR:
            return zip_error_to_data(&self.error, data, length);
        case ZIP_SOURCE_SEEK: {
            const zip_int64_t target =
                zip_source_seek_compute_offset(self.position, size, data, length, &self.error);
            if (target < 0)
                return -1;
            self.position = std::uint64_t(target);
            return 0;
        }
        case ZIP_SOURCE_TELL:
            return zip_int64_t(self.position);
        case ZIP_SOURCE_SUPPORTS:
            return zip_source_make_command_bitmap(
                ZIP_SOURCE_OPEN, ZIP_SOURCE_READ, ZIP_SOURCE_CLOSE, ZIP_SOURCE_STAT,
                ZIP_SOURCE_ERROR, ZIP_SOURCE_FREE, ZIP_SOURCE_SEEK, ZIP_SOURCE_TELL,
                ZIP_SOURCE_SUPPORTS, -1);
        default:
            zip_error_set(&self.error, ZIP_ER_OPNOTSUPP, 0);
            return -1;
        }
    }
};

namespace {

std::string zipReason(zip_error_t* error)
{
    return zip_error_strerror(error);
}

struct ZipFile {
    zip_file_t* file;
    ~ZipFile() { zip_fclose(file); }
};

} // namespace

NpzReader::NpzReader(std::span<const std::byte> archive, std::string where,
                     std::uint64_t inflateLimit)
    : archive_(archive), where_(std::move(where)), inflateLimit_(inflateLimit),
      source_(std::make_unique<Source>())
{
    source_->bytes = archive;
    zip_error_init(&source_->error);
    zip_error_t error;
    zip_error_init(&error);
    zip_source_t* source = zip_source_function_create(&Source::callback, source_.get(), &error);
    if (!source) {
        const std::string reason = zipReason(&error);
        zip_error_fini(&error);
        throw InputError(where_ + ": cannot read the zip archive (" + reason + ")");
    }
    // ZIP_CHECKCONS: the local headers must agree with the central directory.
    zip_t* zip = zip_open_from_source(source, ZIP_RDONLY | ZIP_CHECKCONS, &error);
    if (!zip) {
        zip_source_free(source);
        const std::string reason = zipReason(&error);
        zip_error_fini(&error);
        throw InputError(where_ + ": not a valid .npz (zip) archive: " + reason);
    }
    zip_error_fini(&error);
    zip_ = zip;
    const zip_int64_t count = zip_get_num_entries(zip, 0);
    for (zip_int64_t i = 0; i < count; ++i)
        if (const char* name = zip_get_name(zip, zip_uint64_t(i), ZIP_FL_ENC_RAW)) {
            names_.emplace_back(name);
            indices_.push_back(std::uint64_t(i));
        }
}

NpzReader::~NpzReader()
{
    if (zip_)
        zip_discard(static_cast<zip_t*>(zip_));
    zip_error_fini(&source_->error);
}

std::optional<ZipMemberBytes> NpzReader::read(const std::string& name)
{
    auto* zip = static_cast<zip_t*>(zip_);
    // By the index names() came from, not by libzip's lookup of the name: a name with a
    // NUL byte in it is listed cut at the NUL, and libzip's lookup would not find it.
    const auto listed = std::ranges::find(names_, name);
    if (listed == names_.end())
        return std::nullopt;
    const auto index = indices_[std::size_t(listed - names_.begin())];
    const std::string member = where_ + ": member " + name;
    zip_stat_t st;
    zip_stat_init(&st);
    if (zip_stat_index(zip, zip_uint64_t(index), 0, &st) != 0)
        throw InputError(member + ": " + zip_strerror(zip));
    if ((st.valid & ZIP_STAT_ENCRYPTION_METHOD) && st.encryption_method != ZIP_EM_NONE)
        throw InputError(member + " is encrypted");
    // 1. A member claiming more than the limit is refused before anything is read.
    if (st.size > inflateLimit_)
        throw InputError(member + " claims " + std::to_string(st.size) +
                         " bytes uncompressed, more than the limit of " +
                         std::to_string(inflateLimit_) + " (a zip bomb?)");

    // 2. A stored member: its bytes are the archive's. Read its first bytes raw through
    // libzip; where that read started is where the data starts, checked byte for byte.
    if (st.comp_method == ZIP_CM_STORE && st.comp_size == st.size) {
        zip_file_t* raw = zip_fopen_index(zip, zip_uint64_t(index), ZIP_FL_COMPRESSED);
        if (!raw)
            throw InputError(member + ": " + zip_strerror(zip));
        const ZipFile closer{raw};
        std::byte head[256];
        const auto want = std::min<std::uint64_t>(sizeof head, st.size);
        const zip_int64_t got = zip_fread(raw, head, want);
        const std::uint64_t start = source_->lastRead;
        if (got == zip_int64_t(want) && start <= archive_.size() &&
            st.size <= archive_.size() - start &&
            std::memcmp(archive_.data() + start, head, want) == 0)
            return ZipMemberBytes{archive_.subspan(start, st.size), nullptr, false};
        // Otherwise (libzip read ahead, say) fall through and copy it.
    }

    // 3. Inflate (or copy) into memory, never past the size the member claims.
    zip_file_t* file = zip_fopen_index(zip, zip_uint64_t(index), 0);
    if (!file)
        throw InputError(member + ": " + zip_strerror(zip));
    const ZipFile closer{file};
    auto buffer = std::make_shared<std::vector<std::byte>>(std::size_t(st.size));
    std::uint64_t done = 0;
    while (done < st.size) {
        const zip_int64_t got = zip_fread(file, buffer->data() + done, st.size - done);
        if (got < 0)
            throw InputError(member + ": cannot inflate it (" +
                             zip_error_strerror(zip_file_get_error(file)) + ")");
        if (got == 0)
            throw InputError(member + ": truncated: " + std::to_string(done) + " of " +
                             std::to_string(st.size) + " bytes");
        done += std::uint64_t(got);
    }
    // One byte more would mean the stream is longer than it claims.
    std::byte extra;
    if (zip_fread(file, &extra, 1) != 0)
        throw InputError(member + ": longer than the " + std::to_string(st.size) +
                         " bytes it claims");
    ZipMemberBytes out;
    out.bytes = std::span<const std::byte>(buffer->data(), buffer->size());
    out.owner = buffer;
    out.inflated = true;
    return out;
}

} // namespace attn
