/**
 * The one check of images for a model that reads none, as main refuses and the composer warns:
 * the same English words as before, and the same sentence in the person's language by its key.
 */
import { describe, expect, it } from 'vitest';
import { errorText } from '../../../electron/main/services/words';
import { imagesRefused } from '../../../electron/shared/images-accepted';

const image = (name: string) => ({ name, kind: 'image' });

describe('images for a model that reads none', () => {
  it('lets a message go without images, or to a model that reads them or is not known', () => {
    expect(imagesRefused('demo-chat', false, [{ name: 'a.txt', kind: 'text' }])).toBeUndefined();
    expect(imagesRefused('demo-vision', true, [image('a.png')])).toBeUndefined();
    expect(imagesRefused('someone', undefined, [image('a.png')])).toBeUndefined();
  });

  it('names the model and the image, in English as before and in German', () => {
    const refused = imagesRefused('demo-chat', false, [image('harbour.png')])!;
    expect(refused.english).toBe(
      'demo-chat does not accept images, so harbour.png was not sent: choose a model that accepts images, remove the image, or mark demo-chat as accepting images on the Models screen.',
    );
    expect(errorText('en', refused.id, refused.values)).toBe(refused.english);
    expect(errorText('de', refused.id, refused.values)).toBe(
      'demo-chat nimmt keine Bilder an, daher wurde harbour.png nicht gesendet. Wählen Sie ein Modell, das Bilder annimmt, entfernen Sie das Bild oder markieren Sie demo-chat im Bereich „Modelle“ als Modell, das Bilder annimmt.',
    );
  });

  it('names each of several images', () => {
    const refused = imagesRefused('demo-chat', false, [
      image('a.png'),
      { name: 'notes.md', kind: 'text' },
      image('b.png'),
      image('c.png'),
    ])!;
    expect(refused.english).toBe(
      'demo-chat does not accept images, so a.png, b.png and c.png were not sent: choose a model that accepts images, remove the images, or mark demo-chat as accepting images on the Models screen.',
    );
    expect(errorText('en', refused.id, refused.values)).toBe(refused.english);
    expect(errorText('fr', refused.id, refused.values)).toMatch(
      /^demo-chat n’accepte pas les images, donc a\.png, b\.png et c\.png n’ont pas été envoyées/,
    );
  });
});
