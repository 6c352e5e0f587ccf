# plist-migrate: build, man page, install.  make install PREFIX=/opt/tools
PREFIX ?= /usr/local
BINDIR = $(DESTDIR)$(PREFIX)/bin
MANDIR = $(DESTDIR)$(PREFIX)/share/man/man1
MANOUT = .build/man
COMPDIR_BASH = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
COMPDIR_ZSH = $(DESTDIR)$(PREFIX)/share/zsh/site-functions
COMPDIR_FISH = $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d

.PHONY: build check-static man install uninstall test

# On Linux the release binary carries the Swift runtime and Foundation (--static-swift-stdlib) and,
# where their archives are installed (libxml2-dev brings libxml2.a; ICU's, zlib's and liblzma's come
# with their -dev packages), libxml2, ICU, zlib, liblzma, libstdc++ and libgcc's unwinder: it needs
# the C library alone (`make check-static` says what `ldd` shows). It runs where no Swift toolchain
# is installed and starts faster. STATIC=0 links everything dynamically (a toolchain without
# swift_static). macOS has the runtime and libxml2 in the OS.
STATIC ?= 1
OS := $(shell uname -s)
ARCHIVES = libxml2.a libicuuc.a libicudata.a libz.a liblzma.a libstdc++.a libgcc_eh.a
ifeq ($(STATIC)$(OS),1Linux)
FOUND_ARCHIVES := $(foreach a,$(ARCHIVES),$(filter /%,$(shell clang -print-file-name=$(a) 2>/dev/null)))
STATIC_LIBRARIES := $(if $(filter $(words $(ARCHIVES)),$(words $(FOUND_ARCHIVES))),1,0)
endif
RELEASE_FLAGS = -c release --product plist-migrate $(if $(filter 1Linux,$(STATIC)$(OS)),--static-swift-stdlib)
SCRIPTS = .build/static-libraries

build:
ifeq ($(STATIC_LIBRARIES),1)
	@# -lstdc++ and -lgcc_s (which the Swift driver passes) made to mean the archives.
	mkdir -p $(SCRIPTS)
	echo "INPUT ( $(filter %/libstdc++.a,$(FOUND_ARCHIVES)) )" > $(SCRIPTS)/libstdc++.so
	echo "INPUT ( $(filter %/libgcc_eh.a,$(FOUND_ARCHIVES)) )" > $(SCRIPTS)/libgcc_s.so
	PLIST_MIGRATE_STATIC_LIBRARIES=1 swift build $(RELEASE_FLAGS)
else
	$(if $(filter 0,$(STATIC_LIBRARIES)),@echo "make: not every archive of $(ARCHIVES) is installed: libxml2 is linked dynamically")
	swift build $(RELEASE_FLAGS)
endif

# What the installed binary needs: on Linux with the archives, the C library alone (fails otherwise).
check-static: build
	@ldd .build/release/plist-migrate
	@if [ "$(STATIC_LIBRARIES)" = 1 ] && ldd .build/release/plist-migrate | grep -vE 'linux-vdso|/ld-linux|libc\.so|libm\.so' | grep -q .; then \
		echo "check-static: the binary needs more than the C library" >&2; exit 1; fi
	@.build/release/plist-migrate --no-config Fixtures/demo >/dev/null 2>&1; [ $$? -le 2 ]
	@cp .build/release/plist-migrate .build/plist-migrate.stripped && strip .build/plist-migrate.stripped
	@ls -l .build/release/plist-migrate .build/plist-migrate.stripped | awk '{ printf "%s: %.1f MB\n", $$NF, $$5 / 1e6 }'

# swift-argument-parser's generate-manual plugin writes plist-migrate.1 from the command's own help.
man:
	mkdir -p $(MANOUT)
	swift package --allow-writing-to-directory $(MANOUT) generate-manual --output-directory $(MANOUT)
	@# Its EXIT STATUS section is generic: each subcommand's codes from the tool's own help instead.
	@if command -v python3 >/dev/null; then \
		.build/release/plist-migrate --experimental-dump-help > $(MANOUT)/dump-help.json && \
		python3 docs/tools/man-exit-status.py $(MANOUT)/plist-migrate.1 $(MANOUT)/dump-help.json; \
	else echo "make: no python3: the man page's EXIT STATUS stays generic (each subcommand's help lists its codes)"; fi

# The manual first: generate-manual builds the product its own way (dynamically linked) into
# .build/release; the release build after it compiles every module again (the static build's
# settings differ, so none of the first build's objects is reused) and links the binary that is
# installed, with its completions.
install: man
	$(MAKE) build
	install -d $(BINDIR) $(MANDIR) $(COMPDIR_BASH) $(COMPDIR_ZSH) $(COMPDIR_FISH)
	install -m 755 -s .build/release/plist-migrate $(BINDIR)/plist-migrate
	install -m 644 $(MANOUT)/plist-migrate.1 $(MANDIR)/plist-migrate.1
	.build/release/plist-migrate --generate-completion-script bash > $(COMPDIR_BASH)/plist-migrate
	.build/release/plist-migrate --generate-completion-script zsh > $(COMPDIR_ZSH)/_plist-migrate
	.build/release/plist-migrate --generate-completion-script fish > $(COMPDIR_FISH)/plist-migrate.fish

uninstall:
	rm -f $(BINDIR)/plist-migrate $(MANDIR)/plist-migrate.1 $(COMPDIR_BASH)/plist-migrate $(COMPDIR_ZSH)/_plist-migrate \
		$(COMPDIR_FISH)/plist-migrate.fish

test:
	swift test
