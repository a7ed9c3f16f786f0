export default {
  title: 'Effect editor',
  description:
    'An effect file on the canvas and every system and module beside it: edit, add, remove, reorder, undo, save, load, share by URL.',
};
