from torch import nn

from modules import CrossModalFusion, EmotionDecoder, ModalityEncoder


class MultiModalSeq2Set(nn.Module):
    def __init__(self, opt):
        super().__init__()
        self.encoders = nn.ModuleDict({
            name: ModalityEncoder(dim, opt["hidden"]) for name, dim in opt["modalities"].items()
        })
        self.fusion = CrossModalFusion(opt["hidden"], len(opt["modalities"]), opt["fusion"])
        self.decoder = EmotionDecoder(opt["hidden"], opt["n_labels"])

    def forward(self, inputs, targets):
        states = [self.encoders[name](inputs[name]) for name in self.encoders]
        memory = self.fusion(states)
        return self.decoder(memory, targets)
