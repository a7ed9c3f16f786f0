export default {
  title: 'Particles + bloom',
  description:
    'The particle fountain in an HDR target with bloom, tone mapping and grading; a before/after split; compute or fragment path.',
};
