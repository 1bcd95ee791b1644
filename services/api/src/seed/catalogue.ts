import type { ProductFields } from '@licensestore/domain';

/**
 * Colours and glyph of a product's box art (scripts/generate-product-images.ts): a family shares its glyph, and each
 * product has a colour of its own, so boxes of one family still tell apart at a glance.
 */
export interface BoxArt {
  /** Main colour of the box. */
  colour: string;
  /** Darker shade for the gradient and the band. */
  shade: string;
  /** Text colour that reads on `colour`. */
  ink: string;
  glyph: 'office' | 'project' | 'visio' | 'windows' | 'shield' | 'photo' | 'video' | 'vector';
}

export interface DemoProduct {
  /** Stable handle: names the image file and derives the product id, so the seed is idempotent. */
  slug: string;
  fields: Omit<ProductFields, 'imageUrl'>;
  art: BoxArt;
}

export const productImageUrl = (slug: string) => `/images/products/${slug}.svg`;

const office: BoxArt = { colour: '#D83B01', shade: '#A62D01', ink: '#FFFFFF', glyph: 'office' };
const project: BoxArt = { colour: '#31752F', shade: '#1F4E1E', ink: '#FFFFFF', glyph: 'project' };
const visio: BoxArt = { colour: '#3955A3', shade: '#25386C', ink: '#FFFFFF', glyph: 'visio' };
const windows: BoxArt = { colour: '#0078D4', shade: '#004E8C', ink: '#FFFFFF', glyph: 'windows' };
const windowsServer: BoxArt = { colour: '#243A5E', shade: '#131F33', ink: '#FFFFFF', glyph: 'windows' };
const norton: BoxArt = { colour: '#FFC700', shade: '#E0A800', ink: '#1A1A1A', glyph: 'shield' };
const bitdefender: BoxArt = { colour: '#ED1C24', shade: '#A8121A', ink: '#FFFFFF', glyph: 'shield' };
const eset: BoxArt = { colour: '#0096A1', shade: '#006970', ink: '#FFFFFF', glyph: 'shield' };
const photoshopElements: BoxArt = { colour: '#31A8FF', shade: '#001E36', ink: '#FFFFFF', glyph: 'photo' };
const premiereElements: BoxArt = { colour: '#9999FF', shade: '#00005B', ink: '#FFFFFF', glyph: 'video' };
const corel: BoxArt = { colour: '#45A23B', shade: '#2A6524', ink: '#FFFFFF', glyph: 'vector' };

const OFFICE = 'Office Suites';
const OS = 'Operating Systems';
const ANTIVIRUS = 'Antivirus';
const CREATIVE = 'Creative Tools';

/** Where each vendor hands out its installers, and what to do there: the links and notes of the delivery e-mail. */
const OFFICE_SETUP = {
  downloadUrl: 'https://setup.office.com/',
  installationNotes:
    'Sign in at setup.office.com with your Microsoft account and enter your 25-character license key.\n' +
    'Then choose Install Office in your account and run the installer it downloads.',
};
const windowsMedia = (version: '10' | '11') => ({
  downloadUrl: `https://www.microsoft.com/software-download/windows${version}`,
  installationNotes:
    'Download the Media Creation Tool and create a USB drive or ISO, or use it to upgrade this PC.\n' +
    'Enter your license key when Setup asks for it, or later under Settings > System > Activation.',
});
const WINDOWS_SERVER = {
  downloadUrl: 'https://www.microsoft.com/evalcenter/download-windows-server-2022',
  installationNotes:
    'Download the ISO and install Windows Server 2022 Standard (Desktop Experience or Core).\n' +
    'Activate with your key in Settings > Activation, or run: slmgr /ipk <your key>',
};
const NORTON_SETUP = {
  downloadUrl: 'https://www.norton.com/setup',
  installationNotes:
    'Sign in at norton.com/setup (or create a Norton account) and enter your product key.\n' +
    'Download Norton on each device you protect: one key covers the devices of your plan.',
};
const BITDEFENDER_CENTRAL = {
  downloadUrl: 'https://central.bitdefender.com/',
  installationNotes:
    'Sign in to Bitdefender Central and choose My Subscriptions > Activate with code.\n' +
    'Then go to My Devices > Install protection and run the installer on each device.',
};
const ESET_DOWNLOAD = {
  downloadUrl: 'https://www.eset.com/us/home/antivirus/download/',
  installationNotes:
    'Download and run the ESET installer, then choose Use a purchased License Key and enter your key.',
};
const ADOBE_ELEMENTS = {
  downloadUrl: 'https://helpx.adobe.com/download-install/kb/elements-downloads.html',
  installationNotes:
    'Download the installer for your system (Windows or macOS) and run it.\n' +
    'When asked, choose I have a serial number and enter your license key, then sign in with your Adobe ID.',
};
const COREL_DOWNLOAD = {
  downloadUrl: 'https://www.coreldraw.com/en/pages/download/',
  installationNotes:
    'Download the CorelDRAW Graphics Suite installer, run it and choose I have a serial number.\n' +
    'Enter your license key, then sign in with (or create) your Corel account to finish activation.',
};

/**
 * The demo store: what a first start shows. Prices are what such a reseller asks; a sale price is always below
 * the regular one, and exactly one product is out of stock so the storefront shows that state too.
 */
export const demoProducts: DemoProduct[] = [
  {
    slug: 'microsoft-office-2021-professional-plus',
    art: office,
    fields: {
      name: 'Microsoft Office 2021 Professional Plus',
      category: OFFICE,
      platform: 'Windows',
      description:
        'The complete Office suite for one Windows PC: Word, Excel, PowerPoint, Outlook, OneNote, Publisher and Access. ' +
        'A one-time purchase with a lifetime license (no subscription), the refreshed Office look, dark mode, ' +
        'XLOOKUP and dynamic arrays in Excel, and real-time co-authoring on shared documents.',
      regularPrice: '249.99',
      salePrice: '129.99',
      featured: true,
      inStock: true,
      ...OFFICE_SETUP,
    },
  },
  {
    slug: 'microsoft-office-2024-home-business',
    art: { ...office, colour: '#B4009E', shade: '#7A006B' },
    fields: {
      name: 'Microsoft Office 2024 Home & Business',
      category: OFFICE,
      platform: 'Windows / Mac',
      description:
        'Word, Excel, PowerPoint and Outlook for one PC or Mac, licensed for commercial use. ' +
        'The 2024 release adds new Excel functions, better accessibility checks, and faster start-up. ' +
        'Pay once and keep it: security updates included for the life of the product.',
      regularPrice: '249.99',
      salePrice: '199.99',
      featured: true,
      inStock: true,
      ...OFFICE_SETUP,
    },
  },
  {
    slug: 'microsoft-office-2021-home-student',
    art: { ...office, colour: '#038387', shade: '#025B5E' },
    fields: {
      name: 'Microsoft Office 2021 Home & Student',
      category: OFFICE,
      platform: 'Windows / Mac',
      description:
        'The classic apps for home and school: Word, Excel and PowerPoint for one PC or Mac. ' +
        'Write essays, plan budgets and build presentations offline, with files that open anywhere. ' +
        'Non-commercial use, lifetime license.',
      regularPrice: '149.99',
      salePrice: null,
      featured: true,
      inStock: true,
      ...OFFICE_SETUP,
    },
  },
  {
    slug: 'microsoft-office-2019-professional-plus',
    art: { ...office, colour: '#A4262C', shade: '#6E1A1E' },
    fields: {
      name: 'Microsoft Office 2019 Professional Plus',
      category: OFFICE,
      platform: 'Windows',
      description:
        'Proven and lightweight: Word, Excel, PowerPoint, Outlook, Publisher and Access 2019 for one Windows PC. ' +
        'Ideal for older hardware and offices that standardised on the 2019 file features. Lifetime license.',
      regularPrice: '99.99',
      salePrice: '49.99',
      featured: false,
      inStock: true,
      ...OFFICE_SETUP,
    },
  },
  {
    slug: 'microsoft-project-2021-professional',
    art: project,
    fields: {
      name: 'Microsoft Project 2021 Professional',
      category: OFFICE,
      platform: 'Windows',
      description:
        'Plan projects, assign resources and track progress with Gantt charts, timelines and built-in templates. ' +
        'Includes resource management, timesheets and what-if scheduling for one Windows PC.',
      regularPrice: '179.99',
      salePrice: '119.99',
      featured: false,
      inStock: true,
      ...OFFICE_SETUP,
    },
  },
  {
    slug: 'microsoft-visio-2021-professional',
    art: visio,
    fields: {
      name: 'Microsoft Visio 2021 Professional',
      category: OFFICE,
      platform: 'Windows',
      description:
        'Flowcharts, floor plans, network diagrams and org charts from hundreds of templates and shapes. ' +
        'Link diagrams to live data from Excel and collaborate with comments. One Windows PC, lifetime license.',
      regularPrice: '159.99',
      salePrice: null,
      featured: false,
      inStock: true,
      ...OFFICE_SETUP,
    },
  },
  {
    slug: 'windows-11-pro',
    art: windows,
    fields: {
      name: 'Windows 11 Pro',
      category: OS,
      platform: 'Windows',
      description:
        'Everything in Windows 11 Home plus BitLocker device encryption, Remote Desktop, Hyper-V, Group Policy and ' +
        'joining a business domain. Upgrade from Home in minutes or install fresh. Retail license for one PC.',
      regularPrice: '199.99',
      salePrice: '99.99',
      featured: true,
      inStock: true,
      ...windowsMedia('11'),
    },
  },
  {
    slug: 'windows-11-home',
    art: { ...windows, colour: '#4F52B2', shade: '#33357A' },
    fields: {
      name: 'Windows 11 Home',
      category: OS,
      platform: 'Windows',
      description:
        'The latest Windows for home PCs: snap layouts, widgets, DirectStorage for faster game loading and ' +
        'built-in security with Windows Hello. Retail license for one PC, transferable to a new one.',
      regularPrice: '139.99',
      salePrice: null,
      featured: true,
      inStock: true,
      ...windowsMedia('11'),
    },
  },
  {
    slug: 'windows-10-pro',
    art: { ...windows, colour: '#005B70', shade: '#003A48' },
    fields: {
      name: 'Windows 10 Pro',
      category: OS,
      platform: 'Windows',
      description:
        'The familiar Windows 10 desktop with Pro features: BitLocker, Remote Desktop, Hyper-V and domain join. ' +
        'Also activates a free upgrade path to Windows 11 Pro on supported hardware. One PC.',
      regularPrice: '149.99',
      salePrice: '69.99',
      featured: false,
      inStock: true,
      ...windowsMedia('10'),
    },
  },
  {
    slug: 'windows-server-2022-standard',
    art: windowsServer,
    fields: {
      name: 'Windows Server 2022 Standard',
      category: OS,
      platform: 'Windows Server',
      description:
        'Secured-core server, hybrid Azure Arc management and SMB over QUIC for small and mid-size data centres. ' +
        'Licensed for 16 cores with two virtual machines. Client access licenses sold separately.',
      regularPrice: '499.99',
      salePrice: null,
      featured: false,
      inStock: false,
      ...WINDOWS_SERVER,
    },
  },
  {
    slug: 'norton-360-deluxe',
    art: norton,
    fields: {
      name: 'Norton 360 Deluxe',
      category: ANTIVIRUS,
      platform: 'Windows / Mac / Android / iOS',
      description:
        'Real-time protection against viruses, ransomware and phishing for up to 5 PCs, Macs, phones or tablets. ' +
        'Includes a no-log Secure VPN, password manager, 50 GB cloud backup for PC and dark web monitoring. 1 year.',
      regularPrice: '89.99',
      salePrice: '44.99',
      featured: true,
      inStock: true,
      ...NORTON_SETUP,
    },
  },
  {
    slug: 'norton-360-premium',
    art: { ...norton, colour: '#242424', shade: '#0A0A0A', ink: '#FFC700' },
    fields: {
      name: 'Norton 360 Premium',
      category: ANTIVIRUS,
      platform: 'Windows / Mac / Android / iOS',
      description:
        'Norton 360 for the whole household: up to 10 devices, Secure VPN on each of them, 75 GB cloud backup, ' +
        'parental controls and a smart firewall. 1-year protection, renewable.',
      regularPrice: '109.99',
      salePrice: '64.99',
      featured: false,
      inStock: true,
      ...NORTON_SETUP,
    },
  },
  {
    slug: 'bitdefender-total-security',
    art: bitdefender,
    fields: {
      name: 'Bitdefender Total Security',
      category: ANTIVIRUS,
      platform: 'Windows / Mac / Android / iOS',
      description:
        'Award-winning malware detection with a light footprint, multi-layer ransomware protection, webcam and ' +
        'microphone guard, anti-tracker and a 200 MB/day VPN. Covers 5 devices for 1 year.',
      regularPrice: '94.99',
      salePrice: '49.99',
      featured: true,
      inStock: true,
      ...BITDEFENDER_CENTRAL,
    },
  },
  {
    slug: 'eset-nod32-antivirus',
    art: eset,
    fields: {
      name: 'ESET NOD32 Antivirus',
      category: ANTIVIRUS,
      platform: 'Windows / Mac',
      description:
        'Fast, unobtrusive antivirus and anti-spyware with a gamer mode that stays out of the way. ' +
        'Blocks exploits and malicious scripts before they run. 1 device, 1 year.',
      regularPrice: '49.99',
      salePrice: null,
      featured: false,
      inStock: true,
      ...ESET_DOWNLOAD,
    },
  },
  {
    slug: 'adobe-photoshop-elements-2024',
    art: photoshopElements,
    fields: {
      name: 'Adobe Photoshop Elements 2024',
      category: CREATIVE,
      platform: 'Windows / Mac',
      description:
        'Photo editing made easy: Adobe Sensei AI auto-tones, removes objects and matches colours, while 60+ guided ' +
        'edits walk you through effects step by step. Organise, create collages and share. Perpetual license.',
      regularPrice: '99.99',
      salePrice: '74.99',
      featured: true,
      inStock: true,
      ...ADOBE_ELEMENTS,
    },
  },
  {
    slug: 'adobe-premiere-elements-2024',
    art: premiereElements,
    fields: {
      name: 'Adobe Premiere Elements 2024',
      category: CREATIVE,
      platform: 'Windows / Mac',
      description:
        'Turn clips into polished movies with automatic editing, guided edits, titles, transitions and colour ' +
        'correction. Export for YouTube, social media or 4K screens. Perpetual license for one computer.',
      regularPrice: '99.99',
      salePrice: null,
      featured: false,
      inStock: true,
      ...ADOBE_ELEMENTS,
    },
  },
  {
    slug: 'adobe-photoshop-premiere-elements-2024',
    art: { ...photoshopElements, colour: '#3D3DB8', shade: '#00005B' },
    fields: {
      name: 'Adobe Photoshop & Premiere Elements 2024',
      category: CREATIVE,
      platform: 'Windows / Mac',
      description:
        'Both Elements apps in one box: edit photos and make movies with the same easy, AI-assisted tools and a ' +
        'shared organiser for all your media. Perpetual license.',
      regularPrice: '149.99',
      salePrice: '114.99',
      featured: true,
      inStock: true,
      ...ADOBE_ELEMENTS,
    },
  },
  {
    slug: 'coreldraw-graphics-suite-2024',
    art: corel,
    fields: {
      name: 'CorelDRAW Graphics Suite 2024',
      category: CREATIVE,
      platform: 'Windows / Mac',
      description:
        'Professional vector illustration, layout and photo editing: CorelDRAW, Corel PHOTO-PAINT and Corel Font ' +
        'Manager, with new painterly brushes and variable-font support. One-time purchase.',
      regularPrice: '549.00',
      salePrice: '429.00',
      featured: false,
      inStock: true,
      ...COREL_DOWNLOAD,
    },
  },
];
