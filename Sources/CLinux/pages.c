// Giving back the pages start-up touched and serving does not need (zaoan_release_code_pages).
#define _GNU_SOURCE
#include <sys/mman.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "CLinux.h"

struct released { size_t bytes; };

static int has_text_relocations(struct dl_phdr_info *info) {
    for (int index = 0; index < info->dlpi_phnum; index++) {
        const ElfW(Phdr) *header = &info->dlpi_phdr[index];
        if (header->p_type != PT_DYNAMIC) continue;
        for (const ElfW(Dyn) *entry = (const ElfW(Dyn) *)(info->dlpi_addr + header->p_vaddr); entry->d_tag != DT_NULL; entry++) {
            if (entry->d_tag == DT_TEXTREL) return 1;
            if (entry->d_tag == DT_FLAGS && (entry->d_un.d_val & DF_TEXTREL)) return 1;
        }
    }
    return 0;
}

static uintptr_t page_size(void) { return (uintptr_t)sysconf(_SC_PAGESIZE); }

/// The whole pages inside [from, to): a page shared with a neighbour stays out. False if none.
static int whole_pages(uintptr_t from, uintptr_t to, uintptr_t *start, uintptr_t *end) {
    uintptr_t page = page_size();
    *start = (from + page - 1) & ~(page - 1);
    *end = to & ~(page - 1);
    return *end > *start;
}

/// Drops the whole pages inside [from, to); returns the bytes dropped.
static size_t drop(uintptr_t from, uintptr_t to) {
    uintptr_t start, end;
    if (!whole_pages(from, to, &start, &end) || madvise((void *)start, end - start, MADV_DONTNEED) != 0) return 0;
    return end - start;
}

// The program's `.rodata` where the link placed it in the writable segment (Swift's static
// Foundation: ICU's 34 MB data table among it, so the whole section is flagged writable).
// Nothing writes read-only data (where the section is read-only, as in any other build, a
// write would fault), so it is made read-only once, here, and its pages can then be dropped
// like code: they stay in the page cache and come back by a minor fault. Found through the
// section headers of /proc/self/exe (the same inode the process runs, even if replaced on
// disk since); any doubt about them and the section is left as it is.
static uintptr_t data_start, data_end;
static int data_probed;

static int find_section(const ElfW(Ehdr) *elf, int fd, const char *wanted, ElfW(Shdr) *found) {
    if (elf->e_shentsize != sizeof(ElfW(Shdr)) || elf->e_shnum == 0 || elf->e_shnum > 4096 || elf->e_shstrndx >= elf->e_shnum) return 0;
    size_t bytes = (size_t)elf->e_shnum * sizeof(ElfW(Shdr));
    ElfW(Shdr) *sections = malloc(bytes);
    if (!sections) return 0;
    int ok = 0;
    char *names = NULL;
    if (pread(fd, sections, bytes, (off_t)elf->e_shoff) != (ssize_t)bytes) goto done;
    const ElfW(Shdr) *table = &sections[elf->e_shstrndx];
    if (table->sh_type != SHT_STRTAB || table->sh_size == 0 || table->sh_size > 65536) goto done;
    names = malloc(table->sh_size + 1);
    if (!names || pread(fd, names, table->sh_size, (off_t)table->sh_offset) != (ssize_t)table->sh_size) goto done;
    names[table->sh_size] = 0;
    for (int index = 0; index < elf->e_shnum && !ok; index++) {
        if (sections[index].sh_name >= table->sh_size || strcmp(names + sections[index].sh_name, wanted) != 0) continue;
        *found = sections[index];
        ok = 1;
    }
done:
    free(names);
    free(sections);
    return ok;
}

static void probe_writable_rodata(struct dl_phdr_info *info) {
    data_probed = 1;
    const ElfW(Ehdr) *elf = NULL;
    for (int index = 0; index < info->dlpi_phnum; index++) {
        const ElfW(Phdr) *header = &info->dlpi_phdr[index];
        if (header->p_type == PT_LOAD && header->p_offset == 0) elf = (const ElfW(Ehdr) *)(info->dlpi_addr + header->p_vaddr);
    }
    if (!elf || memcmp(elf->e_ident, ELFMAG, SELFMAG) != 0) return;
    int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    ElfW(Shdr) rodata;
    int found = find_section(elf, fd, ".rodata", &rodata);
    close(fd);
    if (!found || rodata.sh_type != SHT_PROGBITS || !(rodata.sh_flags & SHF_ALLOC) || !(rodata.sh_flags & SHF_WRITE)) return;
    // It must lie in the file-backed part of one writable segment (not in .bss, not past it).
    uintptr_t from = info->dlpi_addr + rodata.sh_addr, to = from + rodata.sh_size;
    if (to < from) return;
    int inside = 0;
    for (int index = 0; index < info->dlpi_phnum; index++) {
        const ElfW(Phdr) *header = &info->dlpi_phdr[index];
        uintptr_t start = info->dlpi_addr + header->p_vaddr;
        if (header->p_type == PT_LOAD && (header->p_flags & PF_W) && from >= start && to <= start + header->p_filesz) inside = 1;
    }
    if (!inside) return;
    uintptr_t start, end;
    if (!whole_pages(from, to, &start, &end) || mprotect((void *)start, end - start, PROT_READ) != 0) return;
    data_start = start;
    data_end = end;
}

static int release_object(struct dl_phdr_info *info, size_t size, void *context) {
    (void)size;
    struct released *released = context;
    // The vDSO is the kernel's own page, not a file mapping: never touched.
    if (info->dlpi_name && strstr(info->dlpi_name, "vdso")) return 0;
    if (has_text_relocations(info)) return 0;
    int program = info->dlpi_name == NULL || info->dlpi_name[0] == 0;
    if (program && !data_probed) probe_writable_rodata(info);
    if (program && data_end > data_start) released->bytes += drop(data_start, data_end);
    for (int index = 0; index < info->dlpi_phnum; index++) {
        const ElfW(Phdr) *header = &info->dlpi_phdr[index];
        // Code and read-only data; a writable segment (and the RELRO inside one) stays.
        if (header->p_type != PT_LOAD || (header->p_flags & PF_W)) continue;
        uintptr_t start = info->dlpi_addr + header->p_vaddr;
        released->bytes += drop(start, start + header->p_memsz);
    }
    return 0;  // on to the next object
}

size_t zaoan_release_code_pages(void) {
    struct released released = { 0 };
    dl_iterate_phdr(release_object, &released);
    return released.bytes;
}
