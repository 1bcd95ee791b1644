import type { BoxArt, DemoProduct } from './catalogue.js';

/**
 * Box art for a demo product: a software box in three-quarter view in the product's colour, with the category, a
 * family glyph, the name and the platform, on a transparent ground, so it sits on the page's own colour in the light
 * theme and the dark one alike. Deterministic, so a test can check the committed files
 * are what this renders (regenerate with `npm run images:products`).
 */
export function renderBoxArt(product: DemoProduct): string {
  const { art, fields } = product;
  const lines = wrap(fields.name, 17).slice(0, 4);
  const nameTop = 330 - (lines.length - 2) * 17;
  const name = lines
    .map((line, i) => `<text x="280" y="${nameTop + i * 36}" class="name">${escapeXml(line)}</text>`)
    .join('\n    ');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="600" viewBox="0 0 600 600" role="img" aria-label="${escapeXml(fields.name)}">
  <defs>
    <linearGradient id="front" x1="0" y1="0" x2="0.35" y2="1">
      <stop offset="0" stop-color="${art.colour}"/>
      <stop offset="1" stop-color="${art.shade}"/>
    </linearGradient>
    <style>
      text { font-family: 'Segoe UI', 'Helvetica Neue', Arial, sans-serif; text-anchor: middle; fill: ${art.ink}; }
      .category { font-size: 17px; font-weight: 600; letter-spacing: 3px; opacity: 0.85; }
      .name { font-size: 30px; font-weight: 700; }
      .platform { font-size: 17px; font-weight: 500; }
    </style>
  </defs>
  <ellipse cx="300" cy="556" rx="215" ry="16" fill="#000000" opacity="0.16"/>
  <polygon points="110,60 150,36 490,36 450,60" fill="${art.colour}"/>
  <polygon points="110,60 150,36 490,36 450,60" fill="#FFFFFF" opacity="0.3"/>
  <polygon points="450,60 490,36 490,516 450,540" fill="${art.shade}"/>
  <polygon points="450,60 490,36 490,516 450,540" fill="#000000" opacity="0.2"/>
  <rect x="110" y="60" width="340" height="480" fill="url(#front)"/>
  <rect x="110" y="60" width="340" height="6" fill="#FFFFFF" opacity="0.35"/>
  <text x="280" y="108" class="category">${escapeXml(fields.category.toUpperCase())}</text>
  <g transform="translate(220 140)" fill="none" stroke="${art.ink}" stroke-width="6" stroke-linecap="round" stroke-linejoin="round">
    ${glyphs[art.glyph](art)}
  </g>
  <g>
    ${name}
  </g>
  <rect x="110" y="484" width="340" height="56" fill="#000000" opacity="0.18"/>
  <text x="280" y="518" class="platform">${escapeXml(fields.platform)}</text>
</svg>
`;
}

/** Generic family glyphs drawn in a 120 × 120 box (not trademarked logos). */
const glyphs: Record<BoxArt['glyph'], (art: BoxArt) => string> = {
  office: () =>
    [
      '<rect x="22" y="10" width="76" height="100" rx="8"/>',
      '<path d="M40 36h40M40 54h40M40 72h40M40 90h24"/>',
    ].join(''),
  project: () =>
    [
      '<rect x="8" y="8" width="104" height="104" rx="10"/>',
      '<path d="M24 34h40M44 56h44M64 78h32M24 98h20"/>',
    ].join(''),
  visio: () =>
    [
      '<rect x="40" y="6" width="40" height="28" rx="5"/>',
      '<rect x="6" y="86" width="40" height="28" rx="5"/>',
      '<rect x="74" y="86" width="40" height="28" rx="5"/>',
      '<path d="M60 34v22M26 86V56h68v30"/>',
    ].join(''),
  windows: (art) =>
    [
      `<g fill="${art.ink}" stroke="none">`,
      '<rect x="8" y="8" width="50" height="50" rx="3"/>',
      '<rect x="62" y="8" width="50" height="50" rx="3"/>',
      '<rect x="8" y="62" width="50" height="50" rx="3"/>',
      '<rect x="62" y="62" width="50" height="50" rx="3"/>',
      '</g>',
    ].join(''),
  shield: () =>
    [
      '<path d="M60 6 104 22v34c0 28-19 48-44 58C35 104 16 84 16 56V22Z"/>',
      '<path d="m38 58 15 15 30-32"/>',
    ].join(''),
  photo: (art) =>
    [
      '<rect x="6" y="14" width="108" height="92" rx="10"/>',
      '<path d="m14 96 32-36 22 24 14-14 28 26"/>',
      `<circle cx="84" cy="40" r="10" fill="${art.ink}" stroke="none"/>`,
    ].join(''),
  video: (art) =>
    [
      '<rect x="6" y="22" width="108" height="84" rx="10"/>',
      '<path d="M6 40h108M24 22l-8 18M48 22l-8 18M72 22l-8 18M96 22l-8 18"/>',
      `<path d="M50 56v36l28-18Z" fill="${art.ink}" stroke="none"/>`,
    ].join(''),
  vector: (art) =>
    [
      '<path d="M10 100C30 20 90 20 110 100"/>',
      '<path d="M10 100 36 40M110 100 84 40" stroke-width="3"/>',
      `<g fill="${art.ink}" stroke="none">`,
      '<rect x="3" y="93" width="14" height="14"/>',
      '<rect x="103" y="93" width="14" height="14"/>',
      '<circle cx="36" cy="40" r="7"/>',
      '<circle cx="84" cy="40" r="7"/>',
      '</g>',
    ].join(''),
};

/** Greedy word wrap at `width` characters; a longer single word keeps its own line. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

const escapeXml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
