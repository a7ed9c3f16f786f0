export default {
  title: 'Sparks and shards over terrain',
  description:
    'A turning torus sheds sparks and lit mesh shards; a curl-noise wind carries them and they land on rolling terrain (a heightfield).',
};
