export default {
  title: 'Sparks off a spinning mesh',
  description:
    'A glTF torus, loaded with glTF-Transform, spins and wobbles; sparks are born on its surface and flung off with its motion.',
};
