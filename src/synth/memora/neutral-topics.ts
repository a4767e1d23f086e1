/**
 * Memory-neutral small talk for Memora's exploration phase and no-memory
 * sessions, in our own words. The paper's neutral turns must not touch the
 * memory domains (films, books, music, travel, and here also food, fitness and
 * the user's plans), so every topic is general knowledge.
 */

export interface NeutralTopic {
  topic: string;
  question: string;
  answer: string;
  followUp: string;
  followAnswer: string;
}

const t = (topic: string, question: string, answer: string, followUp: string, followAnswer: string): NeutralTopic => ({
  topic,
  question,
  answer,
  followUp,
  followAnswer,
});

export const NEUTRAL_TOPICS: readonly NeutralTopic[] = [
  t(
    "tides",
    "What actually causes the tides?",
    "Mostly the Moon's gravity pulling on the oceans, with the Sun adding a smaller pull of its own.",
    "So why are there two high tides a day?",
    "The Earth is stretched on both the side facing the Moon and the far side, so each spot passes two bulges daily.",
  ),
  t(
    "sky colour",
    "Why is the sky blue?",
    "Air molecules scatter short blue wavelengths of sunlight much more than red ones, so blue reaches us from every direction.",
    "Then why are sunsets red?",
    "At sunset light crosses far more air, so most of the blue is scattered away before it reaches you.",
  ),
  t(
    "black holes",
    "What is a black hole, in simple terms?",
    "A region where matter is packed so densely that nothing, not even light, can climb out of its gravity.",
    "How do astronomers see them?",
    "They watch the hot gas swirling around them and the way nearby stars are pulled.",
  ),
  t(
    "vaccines",
    "How does a vaccine teach the immune system?",
    "It shows the body a harmless piece or copy of a germ, so immune cells learn to recognise it before a real infection.",
    "Why do some need boosters?",
    "The immune memory can fade over time, and a booster refreshes it.",
  ),
  t(
    "printing press",
    "How did the printing press change things?",
    "Movable type made books far cheaper to produce, so ideas spread much faster across Europe.",
    "Was Gutenberg the first to use movable type?",
    "No, printers in China and Korea used movable type centuries earlier.",
  ),
  t(
    "bees",
    "How do honeybees tell each other where flowers are?",
    "They perform a waggle dance whose angle and length encode the direction and distance of the food.",
    "Do all bees dance?",
    "Mainly honeybees; many other bee species forage alone.",
  ),
  t(
    "auroras",
    "What causes the northern lights?",
    "Charged particles from the Sun hit gases high in the atmosphere and make them glow.",
    "Why are they mostly green?",
    "Oxygen at that altitude gives off green light when it is excited.",
  ),
  t(
    "compound interest",
    "Can you explain compound interest?",
    "Interest is added to the balance, so the next period earns interest on the interest as well.",
    "Does the compounding frequency matter much?",
    "More frequent compounding helps a little, but the rate and the time matter far more.",
  ),
  t(
    "GPS",
    "How does GPS figure out where I am?",
    "A receiver times signals from several satellites and works out its distance from each one.",
    "Why does it need so many satellites?",
    "Four or more are needed to pin down position and correct the receiver's clock.",
  ),
  t(
    "autumn leaves",
    "Why do leaves change colour in autumn?",
    "Trees stop making green chlorophyll, revealing yellow and orange pigments that were there all along.",
    "Where does red come from?",
    "Some trees make new red pigments in autumn from sugars trapped in the leaf.",
  ),
  t(
    "earthquakes",
    "How are earthquakes measured?",
    "Seismometers record ground motion, and the moment magnitude scale estimates the energy released.",
    "Is each step on the scale a big jump?",
    "Yes, one step up means roughly thirty-two times more energy.",
  ),
  t(
    "prime numbers",
    "Why are prime numbers so important?",
    "Every whole number is built from primes, and modern encryption relies on how hard large numbers are to factor.",
    "Is there a largest prime?",
    "No, Euclid showed there are infinitely many.",
  ),
  t(
    "glaciers",
    "How do glaciers move?",
    "Their own weight makes the ice deform and slide slowly over the ground beneath it.",
    "How fast can they go?",
    "Most creep a few centimetres a day, but some surge many metres.",
  ),
  t(
    "batteries",
    "How does a battery store energy?",
    "Chemical reactions at two electrodes push electrons through a circuit when it is connected.",
    "Why do batteries wear out?",
    "Side reactions slowly damage the electrodes and reduce how much charge they hold.",
  ),
  t(
    "internet routing",
    "How does data find its way across the internet?",
    "It is split into packets, and routers pass each packet along towards its destination address.",
    "Do all packets take the same path?",
    "Not always; they can travel different routes and be reassembled at the end.",
  ),
  t(
    "thunder",
    "What causes thunder?",
    "Lightning heats the air so fast that it expands explosively, creating a shock wave we hear as thunder.",
    "Why does it rumble?",
    "Sound arrives from different parts of the long lightning channel at slightly different times.",
  ),
  t(
    "coral reefs",
    "How do coral reefs form?",
    "Tiny coral animals build limestone skeletons that pile up over thousands of years.",
    "Why are reefs so colourful?",
    "Algae living inside the corals give them much of their colour.",
  ),
  t(
    "clouds",
    "How do clouds form?",
    "Rising air cools, and its water vapour condenses onto tiny particles as droplets.",
    "Why do some clouds look dark?",
    "Thick clouds hold so many droplets that less sunlight gets through.",
  ),
  t(
    "moon phases",
    "Why does the Moon have phases?",
    "We see different portions of its sunlit half as it orbits the Earth.",
    "Why do we always see the same face?",
    "Its rotation is locked to its orbit, so one side always faces us.",
  ),
  t(
    "entropy",
    "What does entropy mean?",
    "Roughly, it measures how many ways a system's parts can be arranged, which tends to grow over time.",
    "Is that why a room gets messy?",
    "It's a popular analogy, though real entropy is about energy and particles.",
  ),
  t(
    "lighthouses",
    "How do lighthouse lenses work?",
    "Fresnel lenses use rings of prisms to bend light into a strong beam without a huge solid lens.",
    "Why does each lighthouse flash differently?",
    "Each has its own pattern so sailors can identify it.",
  ),
  t(
    "octopuses",
    "How do octopuses change colour so quickly?",
    "Their skin has pigment sacs controlled by muscles and nerves, so they can change in a fraction of a second.",
    "Are they colour-blind?",
    "Most are thought to be, which makes their camouflage even more puzzling.",
  ),
  t(
    "volcanoes",
    "How do volcanoes form?",
    "Molten rock rises through weak spots in the crust, often where tectonic plates meet or pull apart.",
    "Why are some eruptions explosive?",
    "Thick magma traps gas, which escapes violently when the pressure drops.",
  ),
  t(
    "leap years",
    "Why do we have leap years?",
    "A year is about 365.24 days, so an extra day every four years keeps the calendar in step with the seasons.",
    "Why skip some century years?",
    "The fraction is slightly under a quarter, so three leap days every four hundred years are dropped.",
  ),
  t(
    "bridges",
    "How do suspension bridges stay up?",
    "The deck hangs from cables that carry the load to tall towers and anchorages.",
    "Why do they sway?",
    "Wind and traffic make them move a little, which the design allows for.",
  ),
  t(
    "the heart",
    "How does the heart keep its rhythm?",
    "A small cluster of cells sends out electrical pulses that make the chambers contract in order.",
    "What makes it speed up?",
    "Nerve signals and hormones such as adrenaline raise the rate.",
  ),
  t(
    "DNA",
    "What does DNA actually do?",
    "It stores the instructions cells use to build proteins, written in a four-letter chemical code.",
    "How is it copied?",
    "The two strands unzip and each serves as a template for a new partner strand.",
  ),
  t(
    "rainbows",
    "How does a rainbow form?",
    "Sunlight bends and reflects inside raindrops, and each colour bends by a slightly different amount.",
    "Why is it an arc?",
    "The light leaves the drops at a fixed angle around the point opposite the Sun.",
  ),
  t(
    "magnets",
    "Why do magnets attract iron?",
    "Iron's tiny magnetic regions line up with the magnet's field, so the two pull together.",
    "Can a magnet lose its strength?",
    "Heat or strong knocks can scramble those regions and weaken it.",
  ),
  t(
    "time zones",
    "Why do we have time zones?",
    "Railways needed consistent schedules, so regions agreed on standard times roughly an hour apart.",
    "Why are some offsets half an hour?",
    "Some countries chose offsets that fit their geography or politics better.",
  ),
];

export const GREETINGS_USER: readonly string[] = [
  "Hi there! How are you doing today?",
  "Hey, how's it going?",
  "Good morning! Got a minute?",
  "Hello again! How are things on your side?",
  "Hi! Hope your day is going well.",
];

export const GREETINGS_AI: readonly string[] = [
  "I'm doing well, thanks for asking! What's on your mind?",
  "All good here. How can I help you today?",
  "Hello! I'm here and ready whenever you are.",
  "Great to hear from you. What would you like to talk about?",
];

export const SMALL_TALK_USER: readonly string[] = [
  "Not bad, thanks. I had a question that popped into my head.",
  "Pretty good! I've been curious about something.",
  "Doing fine. Can I ask you something random?",
];

export const CLOSINGS_USER: readonly string[] = [
  "That's all for now, thanks!",
  "Great, that helps. Talk to you later.",
  "Thanks, I should get back to things now.",
  "Perfect, that's everything for today.",
];

export const CLOSINGS_AI: readonly string[] = [
  "Anytime! Have a great rest of your day.",
  "Happy to help. See you next time!",
  "You're welcome. I'm here whenever you need me.",
];
