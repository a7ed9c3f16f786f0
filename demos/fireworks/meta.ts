export default {
  title: 'Firework show',
  description:
    'Rockets with trails burst into trailing stars that crackle: events and sub-emitters, three systems, on every path.',
};
