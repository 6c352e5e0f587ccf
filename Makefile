# plist-migrate: build, man page, install.  make install PREFIX=/opt/tools
PREFIX ?= /usr/local
BINDIR = $(DESTDIR)$(PREFIX)/bin
MANDIR = $(DESTDIR)$(PREFIX)/share/man/man1
MANOUT = .build/man
COMPDIR_BASH = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
COMPDIR_ZSH = $(DESTDIR)$(PREFIX)/share/zsh/site-functions
COMPDIR_FISH = $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d

.PHONY: build man install uninstall test

# On Linux the release binary carries the Swift runtime and Foundation (--static-swift-stdlib): it
# runs where no Swift toolchain is installed, starts faster and calls into the runtime directly.
# STATIC=0 links them dynamically (a toolchain without swift_static). macOS has the runtime in the OS.
STATIC ?= 1
RELEASE_FLAGS = -c release --product plist-migrate $(if $(filter 1,$(STATIC)),$(if $(filter Linux,$(shell uname -s)),--static-swift-stdlib))

build:
	swift build $(RELEASE_FLAGS)

# swift-argument-parser's generate-manual plugin writes plist-migrate.1 from the command's own help.
man:
	mkdir -p $(MANOUT)
	swift package --allow-writing-to-directory $(MANOUT) generate-manual --output-directory $(MANOUT)

# The manual first: generate-manual builds the product its own way (dynamically linked) into
# .build/release; the release build after it only relinks that binary statically, and that one
# is installed, with its completions.
install: man
	$(MAKE) build
	install -d $(BINDIR) $(MANDIR) $(COMPDIR_BASH) $(COMPDIR_ZSH) $(COMPDIR_FISH)
	install -m 755 .build/release/plist-migrate $(BINDIR)/plist-migrate
	install -m 644 $(MANOUT)/plist-migrate.1 $(MANDIR)/plist-migrate.1
	.build/release/plist-migrate --generate-completion-script bash > $(COMPDIR_BASH)/plist-migrate
	.build/release/plist-migrate --generate-completion-script zsh > $(COMPDIR_ZSH)/_plist-migrate
	.build/release/plist-migrate --generate-completion-script fish > $(COMPDIR_FISH)/plist-migrate.fish

uninstall:
	rm -f $(BINDIR)/plist-migrate $(MANDIR)/plist-migrate.1 $(COMPDIR_BASH)/plist-migrate $(COMPDIR_ZSH)/_plist-migrate \
		$(COMPDIR_FISH)/plist-migrate.fish

test:
	swift test
