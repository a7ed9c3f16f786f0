// The demo index: every folder with a meta.ts, its thumbnail (thumbnail.png, made by
// `npm run thumbnails`) and its one-line description.
interface Meta {
  title: string;
  description: string;
}

const metas = import.meta.glob<Meta>('./*/meta.ts', { eager: true, import: 'default' });
const list = document.getElementById('list') as HTMLElement;
for (const [file, meta] of Object.entries(metas).sort(([a], [b]) => a.localeCompare(b))) {
  const name = file.split('/')[1] as string;
  const item = document.createElement('a');
  item.className = 'demo';
  item.href = `./${name}/`;
  item.dataset['demo'] = name;
  const img = document.createElement('img');
  img.src = `./${name}/thumbnail.png`;
  img.alt = `${meta.title}: a frame of the demo`;
  img.width = 320;
  img.height = 180;
  const title = document.createElement('strong');
  title.textContent = meta.title;
  const line = document.createElement('span');
  line.textContent = meta.description;
  item.append(img, title, line);
  list.append(item);
}
Object.assign(window, { __demos: Object.keys(metas).length });
