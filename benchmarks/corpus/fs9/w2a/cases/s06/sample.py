import torch

from seq2seq import DecoderRNN, EncoderRNN, Seq2seq
from trainer import SupervisedTrainer

VOCAB, HIDDEN, SEQ = 30, 32, 8
SOS = 1


def reverse_task(n_batches, batch_size, generator):
    batches = []
    for _ in range(n_batches):
        src = torch.randint(2, VOCAB, (batch_size, SEQ), generator=generator)
        tgt = torch.cat([torch.full((batch_size, 1), SOS), src.flip(1)], dim=1)
        batches.append((src, tgt))
    return batches


torch.manual_seed(0)
gen = torch.Generator().manual_seed(0)
train_data = reverse_task(10, 16, gen)
dev_data = reverse_task(2, 16, gen)
encoder = EncoderRNN(VOCAB, HIDDEN, dropout_p=0.25)
decoder = DecoderRNN(VOCAB, HIDDEN, dropout_p=0.25)
model = Seq2seq(encoder, decoder)
trainer = SupervisedTrainer(model, lr=3e-3, checkpoint_every=4)
trainer.train(train_data, dev_data, n_epochs=3)
