/**
 * The file types a system runs, installs or hands to something that runs code, rather than shows:
 * the one list the app checks before it asks the system to open a file (`file-opener.ts`), kept
 * here and nowhere else.
 *
 * Drawn from the types Chromium treats as dangerous or allows only on a deliberate click
 * (`download_file_types.asciipb` in Chromium's safe-browsing resources), on every desktop system
 * at once: a file written on one computer is opened on another, so a Windows launcher is refused
 * on Linux too. Pages that run scripts when opened (HTML, SVG, MHTML) are on it as well: the
 * system opens them in a browser, from disk.
 */

/** The types in a list: one word each, comments (from // to the line's end) left out. */
function words(list: string): string[] {
  return list
    .split('\n')
    .map((line) => line.replace(/\/\/.*$/, ''))
    .join(' ')
    .split(/\s+/)
    .filter((word) => word !== '');
}

const WINDOWS = words(`
  // Programs, libraries and installers.
  exe com scr pif cpl dll ocx sys drv efi msi msp mst
  msix msixbundle appx appxbundle appinstaller application appref-ms
  gadget xbap paf xll cpi
  // Scripts and the hosts that run them.
  bat cmd vb vbe vbs vbscript js jse ws wsc wsf wsh hta
  sct ps1 ps1xml ps2 ps2xml psc1 psc2 psm1 psd1 msh msh1 msh2
  mshxml msh1xml msh2xml msc inf ins inx isu isp job reg rgs
  mof scf shb shs chm chi hlp htt wim
  // Shortcuts: they open whatever they point at.
  lnk url website search-ms searchconnector-ms settingcontent-ms library-ms
  xnk mau mad maf mag mam maq mar mas mat mav maw
  // Settings that change how programs load or run.
  local manifest cfg ini grp ops prf pcd plg prg pst crt cer
  der xrm-ms partial rels
  // Office and Access files that carry code.
  ade adp mda mdb mde mdt mdw mdz accdb accde accdr accda
  docm dotm xlsm xltm xlam xla pptm potm ppam ppsm sldm vsdm
  vssm vstm vsmacros slk iqy
  // Disk images that open as a drive, their files without the downloaded mark.
  iso img vhd vhdx
`);

const MACOS = words(`
  // Applications, installers and disk images.
  app pkg mpkg dmg dmgpart dylib kext prefpane qlgenerator plugin
  bundle service xip sparsebundle sparseimage cdr dart dc42
  diskcopy42 dvdr imgpart ndif smi toast udif
  // Scripts, Terminal and Automator.
  command tool terminal applescript scpt scptd osas osax seplugin
  action caction definition workflow wflow
  // Shortcuts and settings profiles.
  webloc fileloc inetloc afploc ftploc mobileconfig configprofile
  internetconnect networkconnect
`);

const LINUX = words(`
  // Launchers, packages and programs.
  desktop appimage flatpak flatpakref flatpakrepo snap deb rpm run
  bin out elf so ko pet pup slp
  // Shell scripts.
  sh bash zsh csh tcsh ksh fish shar
`);

const EVERYWHERE = words(`
  // Scripts an interpreter runs when the file is opened.
  py pyc pyo pyw pyz pyzw pyd pl rb php lua tcl jar jnlp
  class swf spl crx xpi oxt apk dex xapk
  // Pages that run scripts, opened in a browser from disk.
  html htm xhtml xht xhtm shtml shtm sht dhtml dhtm dht mht
  mhtml svg svgz xml xsl xslt xsd hxt
  // Mail and feeds that open in a client able to run what they carry.
  eml msg
`);

/** Every type above, lower case, without its dot. */
export const LAUNCH_TYPES: ReadonlySet<string> = new Set<string>([
  ...WINDOWS,
  ...MACOS,
  ...LINUX,
  ...EVERYWHERE,
]);

/**
 * The type a system would go by, as it reads the name: Windows drops trailing dots and spaces
 * (`x.exe.` runs as `x.exe`) and a stream name after a colon (`x.exe:a`); case never counts.
 */
export function launchTypeOf(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const trimmed = base.replace(/:.*$/, '').replace(/[. ]+$/, '');
  const dot = trimmed.lastIndexOf('.');
  return dot < 0 ? '' : trimmed.slice(dot + 1).toLowerCase();
}

/** Whether opening a file of this name would run something rather than show it. */
export function isLaunchType(name: string): boolean {
  return LAUNCH_TYPES.has(launchTypeOf(name));
}
