// The effect gallery: every shipped effect file (effects/*.json) with its picture
// (effects/thumbnails/<name>.png, made by `npm run thumbnails`), name and description, each a
// link that opens it in the effect editor.
import type { EffectFile } from '../../src/effects/index.js';

const files = import.meta.glob<EffectFile>('../../effects/*.json', {
  eager: true,
  import: 'default',
});
const pictures = import.meta.glob<string>('../../effects/thumbnails/*.png', {
  eager: true,
  query: '?url',
  import: 'default',
});
const list = document.getElementById('list') as HTMLElement;
for (const [file, effect] of Object.entries(files).sort(([a], [b]) => a.localeCompare(b))) {
  const name = file.replace(/^.*\/|\.json$/g, '');
  const item = document.createElement('a');
  item.className = 'effect';
  item.href = `../editor/?effect=${name}`;
  item.dataset['effect'] = name;
  const img = document.createElement('img');
  img.src = pictures[`../../effects/thumbnails/${name}.png`] ?? '';
  img.alt = `${effect.name ?? name}: a frame of the effect`;
  const title = document.createElement('strong');
  title.textContent = effect.name ?? name;
  const line = document.createElement('span');
  line.textContent = `${effect.description ?? ''} (${effect.systems.length} system${effect.systems.length > 1 ? 's' : ''})`;
  item.append(img, title, line);
  list.append(item);
}
Object.assign(window, { __gallery: Object.keys(files).length });
